import torch
from torch import Tensor, nn
from jaxtyping import Float, Int


def scatter_add(src: Float[Tensor, "n"], index: Int[Tensor, "n"], dim_size: int) -> Float[Tensor, "m"]:
    return src.new_zeros(dim_size).index_add_(0, index, src)


class GraphConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.lin_root = nn.Linear(in_channels, out_channels)
        self.lin_rel = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x: Float[Tensor, "n c"], edge_index: Int[Tensor, "2 e"]) -> Float[Tensor, "n o"]:
        row, col = edge_index
        agg = torch.zeros_like(x).index_add_(0, col, x[row])
        return self.lin_root(x) + self.lin_rel(agg)


def topk(x: Float[Tensor, "n"], ratio: float, batch: Int[Tensor, "n"]) -> Int[Tensor, "k"]:
    num_nodes = scatter_add(torch.ones_like(x), batch, int(batch.max()) + 1).long()
    batch_size, max_num_nodes = num_nodes.size(0), num_nodes.max().item()

    cum_num_nodes = torch.cat([num_nodes.new_zeros(1), num_nodes.cumsum(dim=0)[:-1]], dim=0)

    index = torch.arange(batch.size(0), dtype=torch.long, device=x.device)
    index = (index - cum_num_nodes[batch]) + (batch * max_num_nodes)

    dense_x = x.new_full((batch_size * max_num_nodes,), torch.finfo(x.dtype).min)
    dense_x[index] = x
    dense_x = dense_x.view(batch_size, max_num_nodes)

    _, perm = dense_x.sort(dim=-1, descending=True)

    perm = perm + cum_num_nodes.view(-1, 1)
    perm = perm.view(-1)

    k = (ratio * num_nodes.to(torch.float)).ceil().to(torch.long)
    mask = [torch.arange(k[i], dtype=torch.long, device=x.device) + i * max_num_nodes for i in range(batch_size)]
    mask = torch.cat(mask, dim=0)

    perm = perm[mask]
    return perm


def filter_adj(edge_index: Int[Tensor, "2 e"], perm: Int[Tensor, "k"], num_nodes: int) -> Int[Tensor, "2 e2"]:
    mask = perm.new_full((num_nodes,), -1)
    mask[perm] = torch.arange(perm.size(0))
    row, col = mask[edge_index[0]], mask[edge_index[1]]
    keep = (row >= 0) & (col >= 0)
    return torch.stack([row[keep], col[keep]], dim=0)


class SAGPooling(nn.Module):
    def __init__(self, in_channels: int, ratio: float = 0.5, nonlinearity=torch.tanh):
        super().__init__()
        self.gnn = GraphConv(in_channels, 1)
        self.ratio = ratio
        self.nonlinearity = nonlinearity

    def forward(self, x: Float[Tensor, "n c"], edge_index: Int[Tensor, "2 e"], batch: Int[Tensor, "n"]):
        score = self.nonlinearity(self.gnn(x, edge_index).view(-1))
        perm = topk(score, self.ratio, batch)
        x = x[perm] * score[perm].view(-1, 1)
        batch = batch[perm]
        edge_index = filter_adj(edge_index, perm, num_nodes=score.size(0))
        return x, edge_index, batch, perm, score[perm]


class Net(nn.Module):
    def __init__(self, in_channels: int, hidden: int, num_classes: int):
        super().__init__()
        self.conv = GraphConv(in_channels, hidden)
        # raw attention scores: the scores are used as gates directly
        self.pool = SAGPooling(hidden, ratio=0.5, nonlinearity=lambda s: s)
        self.lin = nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index, batch):
        x = torch.relu(self.conv(x, edge_index))
        x, edge_index, batch, perm, _ = self.pool(x, edge_index, batch)
        out = torch.zeros(int(batch.max()) + 1, x.size(1)).scatter_reduce_(
            0, batch.view(-1, 1).expand_as(x), x, reduce="amax", include_self=False
        )
        return self.lin(out), perm


def ring(n: int, offset: int) -> Tensor:
    src = torch.arange(n) + offset
    dst = (torch.arange(n) + 1) % n + offset
    return torch.cat([torch.stack([src, dst]), torch.stack([dst, src])], dim=1)


def reference(model, x, edge_index, sizes):
    h = torch.relu(model.conv(x, edge_index))
    score = model.pool.gnn(h, edge_index).view(-1)
    perm, pooled, start = [], [], 0
    for n in sizes:
        nodes = sorted(range(start, start + n), key=lambda v: -score[v].item())
        k = -(-n // 2)  # ceil(0.5 * n)
        kept = nodes[:k]
        perm += kept
        best = None
        for v in kept:
            val = h[v] * score[v]
            best = val if best is None else torch.maximum(best, val)
        pooled.append(best)
        start += n
    return model.lin(torch.stack(pooled)), perm


if __name__ == "__main__":
    torch.manual_seed(0)
    sizes = [8, 5]  # a batch of two molecules-like rings, the second one smaller
    edge_index = torch.cat([ring(n, sum(sizes[:i])) for i, n in enumerate(sizes)], dim=1)
    batch = torch.cat([torch.full((n,), i) for i, n in enumerate(sizes)])
    x = torch.randn(sum(sizes), 3) * 4
    model = Net(3, 16, 2)
    with torch.no_grad():
        logits, perm = model(x, edge_index, batch)
        ref_logits, ref_perm = reference(model, x, edge_index, sizes)
    assert perm.tolist() == ref_perm, (perm.tolist(), ref_perm)
    assert torch.allclose(logits, ref_logits, atol=1e-5)
    print("ok")
