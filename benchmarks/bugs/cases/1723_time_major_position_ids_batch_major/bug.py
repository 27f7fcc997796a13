import torch
import torch.nn as nn


class Embeddings(nn.Module):
    """Token embeddings plus learned positional embeddings for sequence-first batches."""

    def __init__(self, num_embeddings, embedding_dim, max_len, padding_idx=0):
        super().__init__()
        self.token_embedding = nn.Embedding(num_embeddings, embedding_dim, padding_idx=padding_idx)
        self.pos_embedding = nn.Embedding(max_len, embedding_dim)

    def forward(self, data):
        out = self.token_embedding(data)
        positions = torch.arange(data.size(0)).repeat(data.size(1), 1)
        out = out + self.pos_embedding(positions.to(data))
        return out


class TextEncoder(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, max_len, num_heads):
        super().__init__()
        self.embedding = Embeddings(num_embeddings, embedding_dim, max_len)
        self.layer = nn.TransformerEncoderLayer(embedding_dim, num_heads, dim_feedforward=64, dropout=0.0)

    def forward(self, data):
        padding_mask = (data == 0).t()
        hidden = self.layer(self.embedding(data), src_key_padding_mask=padding_mask)
        keep = (~padding_mask).t().unsqueeze(-1).float()
        return (hidden * keep).sum(0) / keep.sum(0)


def reference_embeddings(emb, data):
    out = torch.empty(*data.shape, emb.token_embedding.embedding_dim)
    for s in range(data.shape[0]):
        for b in range(data.shape[1]):
            out[s, b] = emb.token_embedding.weight[data[s, b]] + emb.pos_embedding.weight[s]
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = TextEncoder(num_embeddings=100, embedding_dim=32, max_len=64, num_heads=4).eval()
    data = torch.randint(1, 100, (12, 4))
    data[9:, 1] = 0
    with torch.no_grad():
        embedded = encoder.embedding(data)
        sentence = encoder(data)
    print("embedded:", tuple(embedded.shape), "sentence:", tuple(sentence.shape))
    print("max diff vs loop:", (embedded - reference_embeddings(encoder.embedding, data)).abs().max().item())
