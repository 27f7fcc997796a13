import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.transitions = nn.Parameter(torch.randn(num_tags, num_tags) * 0.1)

    def calc_unary_score(self, logits, labels, mask):
        scores = torch.gather(logits, 2, labels.unsqueeze(-1)).squeeze(-1)
        return (scores * mask).sum(dim=1)

    def calc_binary_score(self, labels, mask):
        trans = self.transitions[labels[:, :-1], labels[:, 1:]]
        return (trans * mask[:, 1:]).sum(dim=1)

    def calc_gold_score(self, logits, labels, mask):
        return self.calc_unary_score(logits, labels, mask) + self.calc_binary_score(labels, mask)


class TokenTagger(nn.Module):
    def __init__(self, vocab_size, hidden, num_tags):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.proj = nn.Linear(hidden, num_tags)
        self.crf = CRF(num_tags)

    def forward(self, input_ids, attention_mask):
        max_len = int(attention_mask.sum(dim=1).max())
        input_ids = input_ids[:, :max_len]
        return self.proj(torch.tanh(self.embed(input_ids)))

    def gold_score(self, batch):
        input_ids, attention_mask, labels = batch
        logits = self.forward(input_ids, attention_mask)
        seq_len = logits.size(1)
        return self.crf.calc_gold_score(logits, labels[:, :seq_len], attention_mask[:, :seq_len].float())


def collate(examples, max_seq_length=16, pad_id=0, pad_tag=0):
    ids = torch.full((len(examples), max_seq_length), pad_id)
    mask = torch.zeros(len(examples), max_seq_length, dtype=torch.long)
    tags = torch.full((len(examples), max_seq_length), pad_tag)
    for i, (tok, tag) in enumerate(examples):
        ids[i, : len(tok)] = torch.tensor(tok)
        mask[i, : len(tok)] = 1
        tags[i, : len(tag)] = torch.tensor(tag)
    return ids, mask, tags


if __name__ == "__main__":
    torch.manual_seed(0)
    examples = [([5, 9, 3, 7, 2, 8, 4, 6, 1], [1, 2, 0, 0, 3, 4, 0, 5, 0]), ([4, 4, 8, 2, 9], [0, 1, 2, 0, 0])]
    model = TokenTagger(vocab_size=10, hidden=8, num_tags=6)
    gold = model.gold_score(collate(examples))
    for i, (tok, tag) in enumerate(examples):
        logits = model.proj(torch.tanh(model.embed(torch.tensor(tok))))
        ref = sum(logits[t, tag[t]] for t in range(len(tok)))
        ref = ref + sum(model.crf.transitions[tag[t - 1], tag[t]] for t in range(1, len(tok)))
        assert torch.allclose(gold[i], ref, atol=1e-5)
    print("ok")
