import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.num_tags = num_tags
        self.start_transitions = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.end_transitions = nn.Parameter(torch.randn(num_tags) * 0.1)
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)

    def forward(self, emissions, tags, mask):
        emissions, tags, mask = emissions.transpose(0, 1), tags.transpose(0, 1), mask.transpose(0, 1)
        numerator = self._compute_score(emissions, tags, mask)
        denominator = self._compute_normalizer(emissions, mask)
        return (numerator - denominator).sum()

    def _compute_score(self, emissions, tags, mask):
        seq_length, batch_size = tags.shape
        mask = mask.float()
        arange = torch.arange(batch_size)
        score = self.start_transitions[tags[0]]
        score = score + emissions[0, arange, tags[0]]
        for i in range(1, seq_length):
            score = score + self.transitions[tags[i - 1], tags[i]] * mask[i]
            score = score + emissions[i, arange, tags[i]] * mask[i]
        seq_ends = mask.long().sum(dim=0) - 1
        last_tags = tags[seq_ends, arange]
        return score + self.end_transitions[last_tags]

    def _compute_normalizer(self, emissions, mask):
        score = self.start_transitions + emissions[0]
        for i in range(1, emissions.size(0)):
            nxt = torch.logsumexp(score.unsqueeze(2) + self.transitions + emissions[i].unsqueeze(1), dim=1)
            score = torch.where(mask[i].unsqueeze(1), nxt, score)
        return torch.logsumexp(score + self.end_transitions, dim=1)


class BertCrfTagger(nn.Module):
    def __init__(self, vocab_size, hidden, num_tags):
        super().__init__()
        self.encoder = nn.Sequential(nn.Embedding(vocab_size, hidden), nn.Linear(hidden, hidden), nn.Tanh())
        self.classifier = nn.Linear(hidden, num_tags)
        self.crf = CRF(num_tags)

    def forward(self, input_ids, attention_mask, labels):
        emissions = self.classifier(self.encoder(input_ids))
        # the CRF needs real tag ids and a mask whose first step is on: drop [CLS],
        # mask the ignored positions and give them a dummy (valid) tag
        emissions, labels = emissions[:, 1:], labels[:, 1:]
        crf_mask = labels.ne(-100)
        tags = labels.masked_fill(~crf_mask, 0)
        return -self.crf(emissions, tags, crf_mask)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BertCrfTagger(vocab_size=50, hidden=16, num_tags=5)
    # [CLS] w1 w2 w3 [SEP] [PAD] ; labels follow the token-classification recipe (-100 = ignore)
    input_ids = torch.tensor([[2, 11, 17, 23, 3, 0], [2, 31, 8, 3, 0, 0]])
    attention_mask = torch.tensor([[1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 0, 0]])
    labels = torch.tensor([[-100, 1, 2, 0, -100, -100], [-100, 3, 4, -100, -100, -100]])
    import itertools
    with torch.no_grad():
        loss = model(input_ids, attention_mask, labels)
        em = model.classifier(model.encoder(input_ids))
        crf = model.crf

        def path_score(e, path):
            s = crf.start_transitions[path[0]] + e[0, path[0]]
            for t in range(1, len(path)):
                s = s + crf.transitions[path[t - 1], path[t]] + e[t, path[t]]
            return s + crf.end_transitions[path[-1]]

        ref = 0.0
        for b in range(labels.size(0)):
            gold = [l for l in labels[b, 1:].tolist() if l != -100]
            e = em[b, 1:1 + len(gold)]
            log_z = torch.logsumexp(torch.stack([path_score(e, p) for p in itertools.product(range(5), repeat=len(gold))]), 0)
            ref += (log_z - path_score(e, gold)).item()
    assert abs(loss.item() - ref) < 1e-4
    print("ok")
