import torch
import torch.nn.functional as F


class DistributedEmbedding:
    def __init__(self, vocab, dim, lr=0.5):
        self.table = torch.randn(vocab, dim)     # [V, D], lives on the parameter server
        self.lr = lr

    def lookup(self, ids):
        # ids: [B, L] raw feature ids
        uniq, inv = torch.unique(ids, return_inverse=True)   # uniq: [U], inv: [B, L]
        bet = self.table[uniq].clone().requires_grad_()      # batch embedding table [U, D]
        self._cache = (uniq, bet)
        return F.embedding(inv, bet, sparse=True)            # [B, L, D]

    def apply_gradients(self):
        uniq, bet = self._cache
        grad = bet.grad.coalesce()
        rows = grad.indices()[0]                              # [nnz]
        values = grad.values()                                # [nnz, D]
        self.table.index_add_(0, rows, values, alpha=-self.lr)


def train_step(emb, ids, target):
    out = emb.lookup(ids).sum(1)                              # [B, D]
    loss = ((out - target) ** 2).mean()
    loss.backward()
    emb.apply_gradients()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    emb = DistributedEmbedding(vocab=50, dim=4)
    ids = torch.tensor([[41, 7, 7], [33, 41, 19]])
    before = emb.table.clone()
    train_step(emb, ids, torch.zeros(2, 4))
    changed = (emb.table != before).any(1).nonzero().squeeze(1).tolist()
    print("rows updated:", changed, "ids in batch:", ids.unique().tolist())
