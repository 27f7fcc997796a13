import torch
import torch.nn as nn


def collate_graphs(graphs):
    """Batch a list of graphs.

    Returns:
        x (FloatTensor of shape (num_nodes, num_features))
        edge_index (LongTensor of shape (2, num_edges))
        edge_weight (FloatTensor of shape (num_edges,))
    """
    xs, edges, offset = [], [], 0
    for g in graphs:
        xs.append(g["x"])
        edges.append(g["edge_index"] + offset)
        offset += g["x"].size(0)
    edge_index = torch.cat(edges, dim=1)
    return torch.cat(xs), edge_index, torch.ones(edge_index.size(1))


def perturb_edges(edge_index, num_nodes, ratio, generator):
    """Edge-perturbation view: adds ratio * num_edges random edges.

    Returns:
        LongTensor of shape (2, num_edges + num_added)
    """
    num_added = int(edge_index.size(1) * ratio)
    extra = torch.randint(0, num_nodes, (2, num_added), generator=generator)
    return torch.cat([edge_index, extra], dim=1)


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, edge_index, edge_weight):
        """x: (num_nodes, in_dim); edge_index: (2, num_edges); edge_weight: (num_edges,)."""
        row, col = edge_index
        deg = x.new_zeros(x.size(0)).scatter_add_(0, row, edge_weight)
        norm = deg.clamp(min=1).pow(-0.5)
        coef = norm[row] * edge_weight * norm[col]
        h = self.lin(x)
        return torch.zeros_like(h).index_add_(0, col, coef.unsqueeze(-1) * h[row])


def contrastive_views(layer, x, edge_index, edge_weight, generator):
    view1 = layer(x, edge_index, edge_weight)
    aug_index = perturb_edges(edge_index, x.size(0), 0.2, generator)
    num_added = aug_index.size(1) - edge_weight.size(0)
    aug_weight = torch.cat([edge_weight, edge_weight.new_ones(num_added)])
    view2 = layer(x, aug_index, aug_weight)
    return view1, view2


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    graphs = [{"x": torch.randn(n, 5, generator=g),
               "edge_index": torch.randint(0, n, (2, 3 * n), generator=g)} for n in (6, 9, 4)]
    x, edge_index, edge_weight = collate_graphs(graphs)
    layer = GCNLayer(5, 8)
    with torch.no_grad():
        v1, v2 = contrastive_views(layer, x, edge_index, edge_weight, g)

        # reference for the perturbed view: regenerate the same extra edges and loop over them
        g_ref = torch.Generator().manual_seed(0)
        for n in (6, 9, 4):
            torch.randn(n, 5, generator=g_ref), torch.randint(0, n, (2, 3 * n), generator=g_ref)
        aug = perturb_edges(edge_index, x.size(0), 0.2, g_ref)
        edges = aug.t().tolist()
        deg = [0.0] * x.size(0)
        for r, c in edges:
            deg[r] += 1.0
        h = layer.lin(x)
        ref = torch.zeros_like(h)
        for r, c in edges:
            ref[c] += h[r] / (max(deg[r], 1.0) ** 0.5 * max(deg[c], 1.0) ** 0.5)
    assert torch.allclose(v2, ref, atol=1e-5)
    print("ok")
