import torch
import torch.nn as nn


def build_vocab(docs, min_count):
    counts = {}
    for doc in docs:
        for word in doc.split():
            counts[word] = counts.get(word, 0) + 1
    words = sorted(w for w, c in counts.items() if c >= min_count)
    return {"<unk>": 0, **{w: i + 1 for i, w in enumerate(words)}}


def encode(docs, vocab, max_len):
    ids = torch.zeros(len(docs), max_len, dtype=torch.long)
    lengths = torch.zeros(len(docs), dtype=torch.long)
    for i, doc in enumerate(docs):
        toks = [vocab.get(w, 0) for w in doc.split()][:max_len]
        ids[i, : len(toks)] = torch.tensor(toks, dtype=torch.long)
        lengths[i] = len(toks)
    return ids, lengths


def term_counts(ids, lengths, vocab_size):
    valid = (torch.arange(ids.size(1))[None, :] < lengths[:, None]).float()
    counts = torch.zeros(ids.size(0), vocab_size)
    counts.scatter_add_(1, ids, valid)
    return counts


def tf_idf(counts):
    df = (counts > 0).float().sum(0)
    idf = torch.log((1 + counts.size(0)) / (1 + df)) + 1
    tf = counts / counts.sum(1, keepdim=True).clamp(min=1)
    return tf * idf


class LinearBagClassifier(nn.Module):
    def __init__(self, vocab_size, num_labels):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(vocab_size, num_labels) * 0.1)

    def forward(self, ids, lengths):
        valid = (torch.arange(ids.size(1))[None, :] < lengths[:, None]).float()
        rows = self.weight.index_select(0, ids.reshape(-1)).view(*ids.shape, -1)
        return (rows * valid.unsqueeze(-1)).sum(1)


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"min_count": 1, "max_len": 7, "num_labels": 3}
    docs = ["the cat sat on the mat", "the dog ate the cat food", "a bird", "the the the end"]
    vocab = build_vocab(docs, config["min_count"])
    ids, lengths = encode(docs, vocab, config["max_len"])
    counts = term_counts(ids, lengths, len(vocab))
    weights = tf_idf(counts)
    model = LinearBagClassifier(len(vocab), config["num_labels"])
    with torch.no_grad():
        scores = model(ids, lengths)
    for i, doc in enumerate(docs):
        words = doc.split()[: config["max_len"]]
        for w, j in vocab.items():
            assert counts[i, j].item() == sum(1 for x in words if vocab.get(x, 0) == j)
        ref = sum(model.weight[vocab.get(w, 0)] for w in words)
        assert torch.allclose(scores[i], ref.detach(), atol=1e-6)
    assert torch.all(weights[counts == 0] == 0)
    print("ok")
