import torch
import torch.nn as nn


class MiniEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.word_embeddings = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        layer = nn.TransformerEncoderLayer(cfg["hidden"], cfg["heads"], cfg["ffn"], dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, cfg["layers"])

    def resize_token_embeddings(self, new_num_tokens):
        old = self.word_embeddings
        new = nn.Embedding(new_num_tokens, old.embedding_dim)
        with torch.no_grad():
            n = min(old.num_embeddings, new_num_tokens)
            new.weight[:n] = old.weight[:n]
        self.word_embeddings = new

    def forward(self, input_ids, attention_mask):
        x = self.word_embeddings(input_ids)
        return self.encoder(x, src_key_padding_mask=attention_mask == 0)


class RBERT(nn.Module):
    def __init__(self, cfg, num_labels):
        super().__init__()
        self.encoder = MiniEncoder(cfg)
        self.classifier = nn.Linear(3 * cfg["hidden"], num_labels)

    @staticmethod
    def entity_average(hidden, mask):
        mask = mask.unsqueeze(-1).float()
        return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)

    def forward(self, input_ids, attention_mask, e1_mask, e2_mask):
        hidden = self.encoder(input_ids, attention_mask)
        feats = [hidden[:, 0], self.entity_average(hidden, e1_mask), self.entity_average(hidden, e2_mask)]
        return self.classifier(torch.cat(feats, dim=-1))


class Vocab:
    def __init__(self, tokens):
        self.stoi = {t: i for i, t in enumerate(tokens)}

    def add_special_tokens(self, tokens):
        for t in tokens:
            self.stoi.setdefault(t, len(self.stoi))

    def __len__(self):
        return len(self.stoi)

    def encode(self, words):
        return [self.stoi[w] for w in words]


def build_example(vocab, words, max_len):
    ids = vocab.encode(["[CLS]"] + words + ["[SEP]"])
    e1 = [0] * len(ids)
    e2 = [0] * len(ids)
    inside = None
    for i, w in enumerate(["[CLS]"] + words + ["[SEP]"]):
        if w in ("<e1>", "<e2>"):
            inside = w
        elif w in ("</e1>", "</e2>"):
            inside = None
        elif inside == "<e1>":
            e1[i] = 1
        elif inside == "<e2>":
            e2[i] = 1
    pad = max_len - len(ids)
    mask = [1] * len(ids) + [0] * pad
    return ids + [0] * pad, mask, e1 + [0] * pad, e2 + [0] * pad


if __name__ == "__main__":
    torch.manual_seed(0)
    pretrained = {"vocab_size": 20, "hidden": 16, "heads": 2, "ffn": 32, "layers": 1}
    vocab = Vocab(["[PAD]", "[CLS]", "[SEP]"] + [f"w{i}" for i in range(17)])
    vocab.add_special_tokens(["<e1>", "</e1>", "<e2>", "</e2>"])
    model = RBERT(pretrained, num_labels=5).eval()

    sentences = [
        "w3 <e1> w4 w5 </e1> w6 <e2> w7 </e2> w8".split(),
        "<e2> w9 </e2> w10 w11 <e1> w12 </e1>".split(),
    ]
    rows = [build_example(vocab, s, max_len=14) for s in sentences]
    input_ids, attention_mask, e1_mask, e2_mask = (torch.tensor(col) for col in zip(*rows))
    with torch.no_grad():
        logits = model(input_ids, attention_mask, e1_mask, e2_mask)
    print("predicted relations:", logits.argmax(-1).tolist())
