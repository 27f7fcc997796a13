import torch
import torch.nn as nn


class WordTokenizer:
    def __init__(self, words):
        self.vocab = {w: i for i, w in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + words)}

    def add_tokens(self, tokens):
        for tok in tokens:
            self.vocab.setdefault(tok, len(self.vocab))

    def __len__(self):
        return len(self.vocab)

    def encode(self, text):
        ids = [self.vocab.get(w, self.vocab["[UNK]"]) for w in text.split()]
        return [self.vocab["[CLS]"]] + ids + [self.vocab["[SEP]"]]


class TokenEmbedding(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.table = nn.Parameter(torch.randn(cfg["vocab_size"], cfg["dim"]) * 0.02)

    def forward(self, input_ids):
        flat = torch.index_select(self.table, 0, input_ids.reshape(-1))
        return flat.view(*input_ids.shape, -1)


def build(words, cfg):
    tok = WordTokenizer(words)
    cfg = dict(cfg, vocab_size=len(tok))
    model = TokenEmbedding(cfg)
    tok.add_tokens(["<e1>", "</e1>", "<e2>", "</e2>"])
    return tok, model


def batchify(tok, sentences):
    enc = [tok.encode(s) for s in sentences]
    width = max(len(e) for e in enc)
    return torch.tensor([e + [0] * (width - len(e)) for e in enc])


if __name__ == "__main__":
    torch.manual_seed(0)
    words = "the cat sat on a mat dog ran".split()
    tok, model = build(words, {"dim": 16})
    ids = batchify(tok, ["<e1> the cat </e1> sat on <e2> a mat </e2>", "the dog ran"])
    print(model(ids).shape)
