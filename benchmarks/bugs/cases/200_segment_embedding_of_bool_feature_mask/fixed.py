import torch
import torch.nn as nn


class Index:
    def __init__(self, source_symbols, feature_symbols):
        self.symbols = ["<pad>", "<s>", "</s>"] + source_symbols + feature_symbols
        self.features_offset = 3 + len(source_symbols)
        self.lookup = {s: i for i, s in enumerate(self.symbols)}

    def encode(self, lemma, tags):
        return [self.lookup[c] for c in lemma] + [self.lookup[t] for t in tags]


class FeatureAwareEncoder(nn.Module):
    def __init__(self, vocab_size, embedding_size, features_offset, pad_idx=0):
        super().__init__()
        self.features_offset = features_offset
        self.pad_idx = pad_idx
        self.embeddings = nn.Embedding(vocab_size, embedding_size, padding_idx=pad_idx)
        self.segment_embeddings = nn.Embedding(2, embedding_size)
        self.rnn = nn.GRU(embedding_size, embedding_size, batch_first=True)

    def forward(self, symbols):
        is_feature = (symbols >= self.features_offset).long()
        embedded = self.embeddings(symbols) + self.segment_embeddings(is_feature)
        mask = symbols != self.pad_idx
        out, _ = self.rnn(embedded * mask.unsqueeze(-1))
        return out, mask


def collate(batch, pad_idx=0):
    width = max(len(x) for x in batch)
    return torch.tensor([x + [pad_idx] * (width - len(x)) for x in batch])


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"embedding_size": 8}
    index = Index(list("abcdefgrstu"), ["V", "PST", "3", "SG", "N", "PL"])
    batch = collate([index.encode("sage", ["V", "PST"]), index.encode("cat", ["N", "PL"]), index.encode("bag", ["N"])])
    encoder = FeatureAwareEncoder(len(index.symbols), config["embedding_size"], index.features_offset)
    out, mask = encoder(batch)
    with torch.no_grad():
        for b in range(batch.size(0)):
            n = int(mask[b].sum())
            rows = [encoder.embeddings.weight[t] + encoder.segment_embeddings.weight[int(t >= index.features_offset)]
                    for t in batch[b, :n].tolist()]
            ref, _ = encoder.rnn(torch.stack(rows)[None])
            assert torch.allclose(out[b, :n], ref[0], atol=1e-5)
    print("ok")
