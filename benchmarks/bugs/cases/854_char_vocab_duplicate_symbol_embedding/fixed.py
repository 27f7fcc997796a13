import string
import torch
import torch.nn as nn

START, PAD, END = "<s>", "<pad>", "</s>"
SYMBOLS = [START, " "] + list(string.punctuation) + list(string.digits) + list(string.ascii_letters) + ["_", PAD, END]


class CharTokenizer:
    def __init__(self, symbols, max_len):
        unique = list(dict.fromkeys(symbols))
        self.index_to_char = dict(enumerate(unique))
        self.char_to_index = {c: i for i, c in self.index_to_char.items()}
        self.max_len = max_len

    def __len__(self):
        return len(self.char_to_index)

    def encode(self, text):
        ids = [self.char_to_index[START]] + [self.char_to_index[c] for c in text] + [self.char_to_index[END]]
        ids += [self.char_to_index[PAD]] * (self.max_len - len(ids))
        return ids[: self.max_len]

    def batch(self, texts):
        return torch.tensor([self.encode(t) for t in texts])


class SentenceEmbedding(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = CharTokenizer(SYMBOLS, cfg["max_len"])
        self.embedding = nn.Embedding(len(self.tok), cfg["d_model"])
        self.position = nn.Parameter(torch.zeros(cfg["max_len"], cfg["d_model"]))

    def forward(self, texts):
        ids = self.tok.batch(texts)
        return self.embedding(ids) + self.position


if __name__ == "__main__":
    cfg = {"max_len": 24, "d_model": 32}
    emb = SentenceEmbedding(cfg)
    texts = ["hello world", "snake_case names"]
    out = emb(texts)
    ids = emb.tok.batch(texts)
    for b in range(2):
        for t in range(cfg["max_len"]):
            row = emb.embedding.weight[int(ids[b, t])] + emb.position[t]
            assert torch.allclose(out[b, t], row)
    print("ok")
