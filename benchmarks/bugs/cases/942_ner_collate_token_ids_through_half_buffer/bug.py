import numpy as np
import torch
import torch.nn as nn

CONFIG = {"vocab_size": 32000, "embed_dim": 16, "num_tags": 5, "pad_id": 0}


def collate(samples, pad_id=CONFIG["pad_id"]):
    max_len = max(len(ids) for ids, _ in samples)
    token_ids = torch.full((len(samples), max_len), pad_id, dtype=torch.float16)
    tags = torch.full((len(samples), max_len), -100, dtype=torch.long)
    for row, (ids, tag) in enumerate(samples):
        token_ids[row, : len(ids)] = torch.as_tensor(ids, dtype=token_ids.dtype)
        tags[row, : len(tag)] = torch.as_tensor(tag)
    return {"input_ids": token_ids, "tags": tags}


class Tagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab_size"], cfg["embed_dim"], padding_idx=cfg["pad_id"])
        self.head = nn.Linear(cfg["embed_dim"], cfg["num_tags"])

    def forward(self, input_ids):
        emb = self.embed(input_ids.long())
        return self.head(emb)


def load_samples():
    rng = np.random.default_rng(1)
    out = []
    for n in (7, 5, 9):
        out.append((rng.integers(1, CONFIG["vocab_size"], size=n).tolist(), rng.integers(0, 5, size=n).tolist()))
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    samples = load_samples()
    batch = collate(samples)
    model = Tagger(CONFIG)
    logits = model(batch["input_ids"])
    print("first sentence ids :", samples[0][0])
    print("ids the model saw  :", batch["input_ids"][0, :7].long().tolist())
    print("logits[0, 0]       :", logits[0, 0].tolist())
