import torch
from torch import nn


def gcn_norm(edge_index, edge_weight, num_nodes, add_self_loops=True, flow="source_to_target"):
    r"""Symmetric normalization :math:`\hat{D}^{-1/2} \hat{A} \hat{D}^{-1/2}` used by GCN.

    Args:
        edge_index (LongTensor): Graph connectivity of shape ``[2, num_edges]``.
        edge_weight (Tensor): Edge weights of shape ``[num_edges]``.
        num_nodes (int): Number of nodes ``N``.
        add_self_loops (bool): Append one self loop per node.
        flow (str): Message direction; the degree is counted at the aggregating node.

    Returns:
        edge_index (LongTensor): ``[2, num_edges + N]`` connectivity with self loops.
        edge_weight (Tensor): ``[num_edges + N]`` normalized weights.
    """
    if add_self_loops:
        loop = torch.arange(num_nodes, device=edge_index.device)
        edge_index = torch.cat([edge_index, torch.stack([loop, loop])], dim=1)
        edge_weight = torch.cat([edge_weight, edge_weight.new_ones(num_nodes)])
    row, col = edge_index[0], edge_index[1]
    idx = col if flow == "source_to_target" else row
    deg = edge_weight.new_zeros(num_nodes).scatter_add_(0, idx, edge_weight)
    deg_inv_sqrt = deg.pow(-0.5)
    deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float("inf"), 0.0)
    return edge_index, deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col]


class GCNConv(nn.Module):
    r"""Graph convolution :math:`X' = \hat{D}^{-1/2} \hat{A} \hat{D}^{-1/2} X W`.

    Args:
        in_channels (int): Size of each input node feature.
        out_channels (int): Size of each output node feature.
        flow (str): ``"source_to_target"`` aggregates messages at ``edge_index[1]``,
            ``"target_to_source"`` aggregates them at ``edge_index[0]``.

    Shapes:
        x: ``[N, in_channels]``, edge_index: ``[2, E]``, edge_weight: ``[E]``
        -> ``[N, out_channels]``
    """

    def __init__(self, in_channels, out_channels, flow="source_to_target"):
        super().__init__()
        assert flow in ("source_to_target", "target_to_source")
        self.flow = flow
        self.lin = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index, edge_weight=None):
        if edge_weight is None:
            edge_weight = x.new_ones(edge_index.size(1))
        x = self.lin(x)
        edge_index, norm = gcn_norm(edge_index, edge_weight, x.size(0), flow=self.flow)
        if self.flow == "source_to_target":
            src, dst = edge_index[0], edge_index[1]
        else:
            dst, src = edge_index[0], edge_index[1]
        messages = norm.unsqueeze(-1) * x.index_select(0, src)
        return torch.zeros_like(x).index_add_(0, dst, messages)


def reference(conv, x, edge_index):
    xw = conv.lin(x)
    n = x.size(0)
    edges = [(int(a), int(b)) for a, b in edge_index.t()] + [(v, v) for v in range(n)]
    deg = [0.0] * n
    for a, b in edges:
        deg[a] += 1.0  # target_to_source: node a receives the message
    out = torch.zeros_like(xw)
    for a, b in edges:
        out[a] += xw[b] / (deg[a] * deg[b]) ** 0.5
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    num_nodes = 12
    src = torch.randint(0, num_nodes, (40,))
    dst = torch.randint(0, num_nodes, (40,))
    keep = src != dst
    edge_index = torch.stack([src[keep], dst[keep]])
    conv = GCNConv(8, 4, flow="target_to_source")
    x = torch.randn(num_nodes, 8)
    with torch.no_grad():
        out = conv(x, edge_index)
        ref = reference(conv, x, edge_index)
    assert torch.allclose(out, ref, atol=1e-5), (out - ref).abs().max()
    print("ok")
