import torch
import torch.nn as nn

IGNORE = -100
PAD_TAG = -1


def collate(batch):
    # batch: list of (token_ids, tag_ids) pairs of varying length
    width = max(len(tokens) for tokens, _ in batch)
    tokens = torch.zeros(len(batch), width, dtype=torch.long)   # [B, T]
    tags = torch.full((len(batch), width), PAD_TAG, dtype=torch.long)  # [B, T]
    for i, (tok, tag) in enumerate(batch):
        tokens[i, : len(tok)] = torch.tensor(tok)
        tags[i, : len(tag)] = torch.tensor(tag)
    return tokens, tags


class Tagger(nn.Module):
    def __init__(self, vocab, num_tags, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, num_tags)

    def forward(self, tokens):
        return self.out(self.emb(tokens))  # [B, T, C]


def tagging_loss(logits, tags):
    # logits: [B, T, C]; tags: [B, T], IGNORE marks positions to skip
    logp = logits.log_softmax(-1).reshape(-1, logits.shape[-1])  # [B*T, C]
    flat = tags.reshape(-1)                                      # [B*T]
    keep = flat != IGNORE
    rows = torch.arange(flat.numel())[keep]
    picked = logp[rows, flat[keep]]                              # [N]
    return -picked.mean(), picked.numel()


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = [([4, 9, 2, 7, 1], [0, 3, 3, 1, 0]), ([5, 6], [2, 0]), ([3, 8, 8], [1, 1, 4])]
    tokens, tags = collate(samples)
    model = Tagger(vocab=12, num_tags=5)
    loss, scored = tagging_loss(model(tokens), tags)
    print("real tags:", sum(len(t) for _, t in samples), "scored positions:", scored)
    print("loss:", loss.item())
