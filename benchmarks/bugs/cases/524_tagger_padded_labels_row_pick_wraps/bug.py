import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

CONFIG = {"vocab": 50, "num_tags": 7, "hidden": 16, "label_pad": -1, "token_pad": 0}


def collate(batch):
    tokens = pad_sequence([b["tokens"] for b in batch], batch_first=True, padding_value=CONFIG["token_pad"])
    tags = pad_sequence([b["tags"] for b in batch], batch_first=True, padding_value=CONFIG["label_pad"])
    return tokens, tags


class Tagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.proj = nn.Linear(cfg["hidden"], cfg["num_tags"])

    def forward(self, tokens):
        return self.proj(self.embed(tokens))


def weighted_tag_nll(logits, tags, tag_weights):
    logp = logits.log_softmax(-1).flatten(0, 1)
    flat_tags = tags.flatten()
    rows = torch.arange(flat_tags.numel())
    picked = logp[rows, flat_tags]
    weights = tag_weights[flat_tags]
    return -(weights * picked).sum() / weights.sum()


def make_examples(cfg, lengths, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [{"tokens": torch.randint(1, cfg["vocab"], (n,), generator=g),
             "tags": torch.randint(0, cfg["num_tags"], (n,), generator=g)} for n in lengths]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Tagger(CONFIG)
    tokens, tags = collate(make_examples(CONFIG, [9, 4, 2]))
    tag_weights = torch.linspace(1.0, 2.0, CONFIG["num_tags"])
    loss = weighted_tag_nll(model(tokens), tags, tag_weights)
    real = int((tags != CONFIG["label_pad"]).sum())
    print("real tokens:", real, "of", tags.numel(), "positions")
    print("loss:", loss.item())
