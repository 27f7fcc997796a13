import torch
import torch.nn as nn


class PretokenizedCorpus:
    def __init__(self, token_lists, max_len, pad_id):
        self.rows = []
        for toks in token_lists:
            toks = toks[:max_len] + [pad_id] * (max_len - len(toks))
            self.rows.append(torch.tensor(toks).to(torch.int32))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def collate(batch):
    return torch.stack(batch).long()


class TiedTokenEmbedding(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.table = nn.Parameter(torch.randn(vocab_size, dim))

    def forward(self, ids):
        return self.table[ids]

    def logits(self, hidden):
        return hidden @ self.table.t()


def run(cfg, token_lists):
    corpus = PretokenizedCorpus(token_lists, cfg["max_len"], cfg["pad_id"])
    batch = collate([corpus[i] for i in range(len(corpus))])
    emb = TiedTokenEmbedding(cfg["vocab_size"], cfg["dim"])
    return batch, emb, emb(batch)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab_size": 119547, "dim": 8, "max_len": 6, "pad_id": 0}
    docs = [[101, 35012, 2280, 102], [101, 98765, 119000, 77, 102]]
    batch, emb, hidden = run(cfg, docs)
    for b, toks in enumerate(docs):
        toks = toks + [0] * (cfg["max_len"] - len(toks))
        for t, tok in enumerate(toks):
            assert batch[b, t].item() == tok
            assert torch.equal(hidden[b, t], emb.table[tok])
    print("ok")
