import torch
import torch.nn as nn

CONFIG = {
    "input_size": 40,
    "output_size": 40,
    "hidden_size": 16,
    "max_length": 6,
}


def build_dictionary(pairs):
    word2id = {"<pad>": 0, "<go>": 1, "<eos>": 2, "<unk>": 3}
    for src, tgt in pairs:
        for w in (src + " " + tgt).split():
            word2id.setdefault(w, len(word2id))
    return word2id


def encode(sentence, word2id, max_length):
    ids = [word2id.get(w, 3) for w in sentence.split()][: max_length - 1] + [2]
    return ids + [0] * (max_length - len(ids))


class Encoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embedding = nn.Embedding(cfg["input_size"], cfg["hidden_size"])
        self.gru = nn.GRU(cfg["hidden_size"], cfg["hidden_size"], batch_first=True)

    def forward(self, word_inputs):
        embedded = self.embedding(word_inputs)
        outputs, hidden = self.gru(embedded)
        return outputs, hidden


def make_pairs():
    subjects = ["i", "you", "we", "they", "she", "he", "the cat", "the dog", "my friend", "our team"]
    verbs = ["like", "want", "need", "see", "hear", "love", "hate", "find"]
    objects = ["tea", "music", "rain", "books", "trains", "cake", "movies", "snow",
               "coffee", "jazz", "storms", "poems", "boats", "bread", "games", "sunsets"]
    return [(f"{s} {v} {o}", f"why {v} {o} ?") for s in subjects for v in verbs for o in objects]


if __name__ == "__main__":
    pairs = make_pairs()
    word2id = build_dictionary(pairs)
    print("dictionary size:", len(word2id))
    batch = torch.tensor([encode(src, word2id, CONFIG["max_length"]) for src, _ in pairs[-8:]])
    CONFIG["input_size"] = CONFIG["output_size"] = len(word2id)
    encoder = Encoder(CONFIG)
    outputs, hidden = encoder(batch)
    with torch.no_grad():
        ref = torch.stack([torch.stack([encoder.embedding.weight[t] for t in row.tolist()]) for row in batch])
        assert torch.equal(encoder.embedding(batch), ref)
    assert outputs.shape == (8, CONFIG["max_length"], CONFIG["hidden_size"])
    assert int(batch.max()) < CONFIG["input_size"]
    print("ok")
