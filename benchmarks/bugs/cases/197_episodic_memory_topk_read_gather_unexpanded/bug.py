import torch
import torch.nn as nn
import torch.nn.functional as F


class EpisodicMemoryReader(nn.Module):
    """Reads the k most similar slots of a per-episode key/value memory and adds them to the query.

    Args:
        dim: size of keys, values and queries.
        k: number of slots read per query.
    """

    def __init__(self, dim, k):
        super().__init__()
        self.k = k
        self.query_proj = nn.Linear(dim, dim)

    def forward(self, query, mem_keys, mem_values):
        """
        Args:
            query: tensor of shape (batch, dim).
            mem_keys: tensor of shape (batch, slots, dim).
            mem_values: tensor of shape (batch, slots, dim).

        Returns:
            tensor of shape (batch, dim): query plus the attention-weighted read of the top-k slots.
        """
        q = self.query_proj(query)
        sims = torch.einsum("bd,bsd->bs", q, mem_keys)
        top_sims, top_idx = sims.topk(self.k, dim=1)
        weights = F.softmax(top_sims, dim=1)
        slots = mem_values.gather(1, top_idx.unsqueeze(-1))
        read = (weights.unsqueeze(-1) * slots).sum(1)
        return query + read


if __name__ == "__main__":
    torch.manual_seed(0)
    reader = EpisodicMemoryReader(dim=6, k=3).eval()
    query, mem_keys, mem_values = torch.randn(2, 6), torch.randn(2, 10, 6), torch.randn(2, 10, 6)
    with torch.no_grad():
        out = reader(query, mem_keys, mem_values)
        ref = torch.zeros(2, 6)
        for b in range(2):
            sims = [float(reader.query_proj(query[b]) @ mem_keys[b, s]) for s in range(10)]
            top = sorted(range(10), key=lambda s: -sims[s])[:3]
            w = torch.softmax(torch.tensor([sims[s] for s in top]), dim=0)
            ref[b] = query[b] + sum(w[i] * mem_values[b, s] for i, s in enumerate(top))
    print("output shape:", tuple(out.shape), "max |diff| vs per-slot read:", round((out - ref).abs().max().item(), 4))
