import numpy as np
import torch
import torch.nn as nn
from jaxtyping import Float, Int


class DateDataset:
    """Toy date-format translation pairs, stored as numpy int32 id arrays."""

    def __init__(self, n, src_len, tgt_len, vocab, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.integers(3, vocab, size=(n, src_len)).astype(np.int32)
        self.y = rng.integers(3, vocab, size=(n, tgt_len)).astype(np.int32)

    def sample(self, idx):
        bx = torch.from_numpy(self.x[idx])
        by = torch.from_numpy(self.y[idx])
        return bx, by


class Seq2Seq(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.enc_emb = nn.Embedding(vocab, emb)
        self.dec_emb = nn.Embedding(vocab, emb)
        self.encoder = nn.GRU(emb, hidden, batch_first=True)
        self.decoder = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, bx: Int[torch.Tensor, "b s"], dec_in: Int[torch.Tensor, "b t"]) -> Float[torch.Tensor, "b t v"]:
        _, h = self.encoder(self.enc_emb(bx))
        o, _ = self.decoder(self.dec_emb(dec_in), h)
        return self.out(o)


def token_nll(logits: Float[torch.Tensor, "b t v"], target: Int[torch.Tensor, "b t"]) -> Float[torch.Tensor, ""]:
    logp = torch.log_softmax(logits, dim=-1)
    gold = torch.take_along_dim(logp, target.unsqueeze(-1), dim=-1).squeeze(-1)
    return -gold.mean()


def train_step(model, opt, bx, by, bos_id=1):
    dec_in = torch.cat([torch.full_like(by[:, :1], bos_id), by[:, :-1]], dim=1)
    logits = model(bx, dec_in)
    loss = token_nll(logits, by)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    data = DateDataset(n=32, src_len=8, tgt_len=6, vocab=27)
    model = Seq2Seq(vocab=27, emb=16, hidden=32)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    bx, by = data.sample(np.arange(8))
    print("loss", train_step(model, opt, bx, by).item())
