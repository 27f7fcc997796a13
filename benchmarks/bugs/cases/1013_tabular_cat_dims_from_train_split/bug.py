import torch
import torch.nn as nn


class EmbeddingGenerator(nn.Module):
    def __init__(self, input_dim, cat_dims, cat_idxs, cat_emb_dim):
        super().__init__()
        self.cat_idxs = cat_idxs
        self.embeddings = nn.ModuleList(nn.Embedding(d, cat_emb_dim) for d in cat_dims)
        self.continuous_idx = [i for i in range(input_dim) if i not in cat_idxs]

    def forward(self, x):
        cols = [x[:, self.continuous_idx]]
        for emb, idx in zip(self.embeddings, self.cat_idxs):
            cols.append(emb(x[:, idx].long()))
        return torch.cat(cols, dim=1)


class TabClassifier(nn.Module):
    def __init__(self, input_dim, cat_dims, cat_idxs, cat_emb_dim=2, n_classes=2):
        super().__init__()
        self.embedder = EmbeddingGenerator(input_dim, cat_dims, cat_idxs, cat_emb_dim)
        post_dim = input_dim - len(cat_idxs) + cat_emb_dim * len(cat_idxs)
        self.head = nn.Linear(post_dim, n_classes)

    def forward(self, x):
        return self.head(self.embedder(x))


def label_encode(column, vocab):
    return torch.tensor([vocab.setdefault(v, len(vocab)) for v in column], dtype=torch.float32)


if __name__ == "__main__":
    torch.manual_seed(0)
    colors = ["red", "blue", "red", "green", "blue", "green", "red", "blue"]
    sizes = ["S", "M", "L", "M", "S", "L", "M", "XL"]
    vocabs = [{}, {}]
    table = torch.stack([
        torch.randn(8),
        label_encode(colors, vocabs[0]),
        torch.randn(8),
        label_encode(sizes, vocabs[1]),
    ], dim=1)  # 8 rows, 4 columns
    X_train, X_test = table[:6], table[6:]
    cat_idxs = [1, 3]
    cat_dims = [len(torch.unique(X_train[:, i])) for i in cat_idxs]

    clf = TabClassifier(input_dim=4, cat_dims=cat_dims, cat_idxs=cat_idxs)
    print("train logits:", tuple(clf(X_train).shape))
    print("test logits:", tuple(clf(X_test).shape))
