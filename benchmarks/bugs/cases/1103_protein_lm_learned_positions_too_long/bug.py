import torch
import torch.nn as nn
import torch.nn.functional as F

AMINO = "LAGVSERTIDPKQNFYMHWC"
PAD, CLS, EOS = 1, 0, 2


def batch_convert(seqs):
    toks = torch.full((len(seqs), max(map(len, seqs)) + 2), PAD, dtype=torch.long)
    for i, s in enumerate(seqs):
        toks[i, 0] = CLS
        toks[i, 1:len(s) + 1] = torch.tensor([AMINO.index(a) + 4 for a in s])
        toks[i, len(s) + 1] = EOS
    return toks


class LearnedPositionalEmbedding(nn.Embedding):
    def __init__(self, num_embeddings, embedding_dim, padding_idx):
        super().__init__(num_embeddings + padding_idx + 1, embedding_dim, padding_idx)
        self.max_positions = num_embeddings

    def forward(self, tokens):
        mask = tokens.ne(self.padding_idx).int()
        positions = (torch.cumsum(mask, dim=1) * mask).long() + self.padding_idx
        return F.embedding(positions, self.weight, self.padding_idx)


class ProteinEncoder(nn.Module):
    def __init__(self, vocab=33, dim=32, max_positions=1024):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.embed_positions = LearnedPositionalEmbedding(max_positions, dim, PAD)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.embed_tokens(tokens) + self.embed_positions(tokens)
        x = self.layer(x, src_key_padding_mask=tokens.eq(PAD))
        return self.lm_head(x)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    seqs = ["".join(AMINO[j] for j in torch.randint(0, 20, (n,), generator=g)) for n in (300, 1100)]
    model = ProteinEncoder().eval()
    with torch.no_grad():
        logits = model(batch_convert(seqs))
    print("logits:", tuple(logits.shape))
