import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, input_dim, hid_dim, n_layers, n_heads, pf_dim, dropout, max_length=100):
        super().__init__()
        self.tok_embedding = nn.Embedding(input_dim, hid_dim)
        self.pos_embedding = nn.Embedding(max_length, hid_dim)
        layer = nn.TransformerEncoderLayer(hid_dim, n_heads, pf_dim, dropout, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.dropout = nn.Dropout(dropout)
        self.scale = hid_dim ** 0.5

    def embed(self, src):
        batch_size, src_len = src.shape
        pos = torch.arange(0, src_len).unsqueeze(0).repeat(batch_size, 1)
        return self.dropout(self.tok_embedding(src) * self.scale + self.pos_embedding(pos))

    def forward(self, src, src_mask):
        return self.layers(self.embed(src), src_key_padding_mask=src_mask)


def collate(batch, pad_idx, sos_idx, eos_idx, max_length):
    seqs = [[sos_idx] + tokens[:max_length - 2] + [eos_idx] for tokens in batch]
    max_len = max(len(s) for s in seqs)
    src = torch.tensor([s + [pad_idx] * (max_len - len(s)) for s in seqs])
    return src, src == pad_idx


def encode_corpus(model, corpus, batch_size, pad_idx, sos_idx, eos_idx):
    outputs = []
    for i in range(0, len(corpus), batch_size):
        src, src_mask = collate(corpus[i:i + batch_size], pad_idx, sos_idx, eos_idx,
                                max_length=model.pos_embedding.num_embeddings)
        outputs.append((src, model.embed(src), model(src, src_mask)))
    return outputs


if __name__ == "__main__":
    torch.manual_seed(0)
    PAD_IDX, SOS_IDX, EOS_IDX = 1, 2, 3
    enc = Encoder(input_dim=40, hid_dim=16, n_layers=2, n_heads=4, pf_dim=32, dropout=0.1, max_length=12).eval()
    corpus = [[5, 9, 14, 7], [21, 8, 33, 12, 6, 18, 25, 30, 11, 4, 17, 9, 28], [10, 11, 12]]
    with torch.no_grad():
        encoded = encode_corpus(enc, corpus, batch_size=2, pad_idx=PAD_IDX, sos_idx=SOS_IDX, eos_idx=EOS_IDX)
    print("encoded batch shapes:", [tuple(out.shape) for _, _, out in encoded])
    tok_w, pos_w = enc.tok_embedding.weight, enc.pos_embedding.weight
    rows = [row for src, _, _ in encoded for row in src.tolist()]
    for tokens, row in zip(corpus, rows):
        kept = [SOS_IDX] + tokens[:10] + [EOS_IDX]
        assert row[:len(kept)] == kept and all(t == PAD_IDX for t in row[len(kept):])
    for src, emb, _ in encoded:
        for b in range(src.size(0)):
            for t in range(src.size(1)):
                expected = tok_w[src[b, t]] * enc.scale + pos_w[t]
                assert torch.allclose(emb[b, t], expected, atol=1e-5)
    print("ok")
