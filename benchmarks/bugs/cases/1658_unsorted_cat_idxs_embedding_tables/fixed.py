import numpy as np
import torch
import torch.nn as nn


class EmbeddingGenerator(nn.Module):
    """Embeds the categorical columns of a mixed tabular batch and keeps continuous ones as is."""

    def __init__(self, input_dim, cat_dims, cat_idxs, cat_emb_dim):
        super().__init__()
        if isinstance(cat_emb_dim, int):
            self.cat_emb_dims = [cat_emb_dim] * len(cat_idxs)
        else:
            self.cat_emb_dims = list(cat_emb_dim)
        self.post_embed_dim = int(input_dim + np.sum(self.cat_emb_dims) - len(self.cat_emb_dims))

        # one table per categorical column, sorted by column position (the order forward() visits them)
        sorted_idxs = np.argsort(cat_idxs)
        cat_dims = [cat_dims[i] for i in sorted_idxs]
        self.cat_emb_dims = [self.cat_emb_dims[i] for i in sorted_idxs]
        self.embeddings = nn.ModuleList()
        for cat_dim, emb_dim in zip(cat_dims, self.cat_emb_dims):
            self.embeddings.append(nn.Embedding(cat_dim, emb_dim))

        self.continuous_idx = torch.ones(input_dim, dtype=torch.bool)  # [input_dim]
        self.continuous_idx[cat_idxs] = False

    def forward(self, x):
        # x: [batch, input_dim], categorical columns hold integer codes stored as floats
        cols = []
        cat_feat_counter = 0
        for feat_init_idx, is_continuous in enumerate(self.continuous_idx):
            if is_continuous:
                cols.append(x[:, feat_init_idx].float().view(-1, 1))  # [batch, 1]
            else:
                cols.append(self.embeddings[cat_feat_counter](x[:, feat_init_idx].long()))  # [batch, emb_dim]
                cat_feat_counter += 1
        return torch.cat(cols, dim=1)  # [batch, post_embed_dim]


def make_table(n_rows, input_dim, cat_idxs, cat_dims, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n_rows, input_dim, generator=g)  # [n_rows, input_dim]
    for col, card in zip(cat_idxs, cat_dims):
        x[:, col] = torch.randint(0, card, (n_rows,), generator=g).float()
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    input_dim = 6
    cat_idxs = [4, 1]  # column 4: store id (12 values), column 1: weekday bucket (3 values)
    cat_dims = [12, 3]
    x = make_table(32, input_dim, cat_idxs, cat_dims)
    embedder = EmbeddingGenerator(input_dim, cat_dims, cat_idxs, cat_emb_dim=[4, 2])
    out = embedder(x)
    assert out.shape == (32, embedder.post_embed_dim)
    table_of = {col: embedder.embeddings[k] for k, col in enumerate(sorted(cat_idxs))}
    assert table_of[4].num_embeddings == 12 and table_of[1].num_embeddings == 3
    for r in range(x.shape[0]):
        expected = []
        for c in range(input_dim):
            if c in table_of:
                expected.extend(table_of[c].weight[int(x[r, c])].tolist())
            else:
                expected.append(float(x[r, c]))
        assert torch.allclose(out[r], torch.tensor(expected)), r
    print("ok")
