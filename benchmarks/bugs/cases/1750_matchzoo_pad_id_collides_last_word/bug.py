import torch
import torch.nn as nn


def build_word_dict(corpus):
    words = sorted({w for text in corpus for w in text.split()})
    return {w: i for i, w in enumerate(words)}


def make_input_conf(word_dict, share_conf):
    conf = dict(share_conf)
    conf["vocab_size"] = len(word_dict)
    conf["embed_rows"] = conf["vocab_size"]
    conf["pad_id"] = conf["vocab_size"] - 1
    return conf


def convert_texts(texts, word_dict, conf):
    ids = torch.full((len(texts), conf["text1_maxlen"]), conf["pad_id"], dtype=torch.long)
    for i, text in enumerate(texts):
        toks = [word_dict[w] for w in text.split()][: conf["text1_maxlen"]]
        ids[i, : len(toks)] = torch.tensor(toks)
    return ids


class BagOfWordsEncoder(nn.Module):
    def __init__(self, conf):
        super().__init__()
        self.embedding = nn.Embedding(conf["embed_rows"], conf["embed_size"], padding_idx=conf["pad_id"])

    def forward(self, ids):
        emb = self.embedding(ids)
        return emb.sum(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = [
        "slow cooked beef brisket recipe",
        "how long to smoke a pork shoulder",
        "best wood for smoking beef",
    ]
    word_dict = build_word_dict(corpus)
    conf = make_input_conf(word_dict, {"text1_maxlen": 8, "embed_size": 6})
    encoder = BagOfWordsEncoder(conf)
    queries = ["best wood for smoking beef", "best for smoking beef"]
    ids = convert_texts(queries, word_dict, conf)
    with torch.no_grad():
        reps = encoder(ids)
    print("last vocab word:", max(word_dict, key=word_dict.get))
    print("query reps identical with and without 'wood':", torch.allclose(reps[0], reps[1]))
