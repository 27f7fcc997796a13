import torch
import torch.nn as nn
import torch.nn.functional as F


class CharTokenizer:
    pad_token_id = 0
    eos_token_id = 1

    def __init__(self, alphabet):
        self.stoi = {c: i + 2 for i, c in enumerate(alphabet)}
        self.itos = {i: c for c, i in self.stoi.items()}

    def __call__(self, texts):
        return [[self.pad_token_id] + [self.stoi[c] for c in t] + [self.eos_token_id] for t in texts]

    def decode(self, ids):
        return "".join(self.itos.get(int(i), "") for i in ids)


class TinySeq2SeqPolicy(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab_size)
        self.v_head = nn.Linear(dim, 1)

    def forward(self, input_ids, decoder_input_ids):
        _, h = self.encoder(self.embed(input_ids))           # h: [1, B, D]
        out, _ = self.decoder(self.embed(decoder_input_ids), h)  # [B, T, D]
        return self.lm_head(out), self.v_head(out).squeeze(-1)  # [B, T, V], [B, T]


def logprobs_of_labels(logits, labels):
    # logits: [B, T, V], labels: [B, T] -> [B, T]
    logprobs = F.log_softmax(logits, dim=-1)
    return torch.take_along_dim(logprobs, labels.unsqueeze(-1), dim=-1).squeeze(-1)


def make_experience(policy, ref_policy, tokenizer, query_tensors, str_outputs):
    # re-tokenize the trimmed generations so the value/logprob pass sees exactly what was scored
    outputs = tokenizer(str_outputs)
    outputs = list(map(torch.IntTensor, outputs))
    maxsize = max(map(len, outputs))
    outputs = [F.pad(o, (0, maxsize - len(o)), value=tokenizer.pad_token_id) for o in outputs]
    response_tensors = torch.vstack(outputs)                  # [B, T]

    with torch.no_grad():
        logits, values = policy(query_tensors, response_tensors)
        ref_logits, _ = ref_policy(query_tensors, response_tensors)
    logprobs = logprobs_of_labels(logits[:, :-1, :], response_tensors[:, 1:])      # [B, T-1]
    ref_logprobs = logprobs_of_labels(ref_logits[:, :-1, :], response_tensors[:, 1:])
    mask = response_tensors[:, 1:] != tokenizer.pad_token_id
    kl = (logprobs - ref_logprobs) * mask
    return response_tensors, logprobs, values[:, :-1], kl


if __name__ == "__main__":
    torch.manual_seed(0)
    tok = CharTokenizer("abcdefgh")
    policy = TinySeq2SeqPolicy(vocab_size=10, dim=16)
    ref_policy = TinySeq2SeqPolicy(vocab_size=10, dim=16)
    ref_policy.load_state_dict(policy.state_dict())
    query_tensors = torch.tensor([[2, 3, 4, 1], [5, 6, 1, 0]])
    responses, logprobs, values, kl = make_experience(policy, ref_policy, tok, query_tensors, ["abba", "hg"])
    print("logprobs:", logprobs.shape, "kl sum:", kl.sum().item())
