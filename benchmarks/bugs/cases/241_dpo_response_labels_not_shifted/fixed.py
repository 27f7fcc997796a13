import torch
import torch.nn as nn
import torch.nn.functional as F


class DPODataCollator:
    def __init__(self, max_seq_len, pad_id=0):
        self.max_seq_len = max_seq_len
        self.pad_id = pad_id

    def __call__(self, features):
        inputs_ids, labels = [], []
        for feature in features:
            inputs_ids.append(feature[0] + feature[1])
            labels.append([0] * (len(feature[0]) - 1) + feature[1])
        for feature in features:
            inputs_ids.append(feature[0] + feature[2])
            labels.append([0] * (len(feature[0]) - 1) + feature[2])
        max_len = min(self.max_seq_len, max(len(x) for x in inputs_ids))
        pad = lambda seqs: [s[:max_len] + [self.pad_id] * (max_len - len(s[:max_len])) for s in seqs]
        return {"input_ids": torch.tensor(pad(inputs_ids)), "labels": torch.tensor(pad(labels))}


def logits_to_probs(logits, labels):
    log_probs = F.log_softmax(logits, dim=2)
    probs = torch.gather(log_probs, dim=2, index=labels.unsqueeze(2)).squeeze(-1)
    return probs


def mask_logits(logits, labels):
    new_logits = []
    for logit, label in zip(logits, labels):
        new_logits.append(logit[label != 0].sum().unsqueeze(0))
    return new_logits


def dpo_loss(ref_probs, probs, beta):
    def split_probs(probs):
        len_chosen = len(probs) // 2
        return torch.cat(probs[:len_chosen]), torch.cat(probs[len_chosen:])

    ref_chosen, ref_rejected = split_probs(ref_probs)
    chosen, rejected = split_probs(probs)
    logits = (chosen - ref_chosen) - (rejected - ref_rejected)
    return -F.logsigmoid(beta * logits).mean(), chosen, rejected


class ToyPolicy(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, input_ids):
        return self.head(self.rnn(self.embed(input_ids))[0])


def sequence_logps(model, batch):
    return mask_logits(logits_to_probs(model(batch["input_ids"]), batch["labels"]), batch["labels"])


if __name__ == "__main__":
    torch.manual_seed(0)
    policy, reference = ToyPolicy(20, 8), ToyPolicy(20, 8)
    features = [([5, 6, 7], [8, 9], [10, 11, 12]), ([13, 14], [15, 16, 17], [18])]
    batch = DPODataCollator(max_seq_len=16)(features)
    with torch.no_grad():
        loss, chosen, rejected = dpo_loss(sequence_logps(reference, batch), sequence_logps(policy, batch), beta=0.1)
        logp = F.log_softmax(policy(batch["input_ids"]), dim=-1)
    got = chosen.tolist() + rejected.tolist()
    pairs = [(f[0], f[1]) for f in features] + [(f[0], f[2]) for f in features]
    for row, (prompt, response) in enumerate(pairs):
        expected = 0.0
        for i, tok in enumerate(response):
            expected += logp[row, len(prompt) + i - 1, tok].item()
        assert abs(got[row] - expected) < 1e-5
    print("ok")
