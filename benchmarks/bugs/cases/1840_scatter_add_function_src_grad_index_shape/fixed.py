import torch
import torch.nn as nn


class ScatterAddRows(torch.autograd.Function):
    """out[index[i, j], j] += src[i, j]; only the rows of src covered by index take part."""

    @staticmethod
    def forward(ctx, index, src, num_out):
        ctx.save_for_backward(index)
        ctx.src_shape = src.shape
        out = src.new_zeros(num_out, src.size(1))
        return out.scatter_add_(0, index, src)

    @staticmethod
    def backward(ctx, grad_out):
        (index,) = ctx.saved_tensors
        grad_src = grad_out.new_zeros(ctx.src_shape)
        grad_src[: index.size(0)] = grad_out.gather(0, index)
        return None, grad_src, None


class ClusterPooling(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.proj = nn.Linear(in_dim, out_dim)

    def forward(self, node_feats, cluster_index, num_clusters):
        # node_feats are padded to a fixed number of rows; cluster_index only lists the real nodes
        h = self.proj(node_feats)
        return ScatterAddRows.apply(cluster_index, h, num_clusters)


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = ClusterPooling(5, 4)
    node_feats = torch.randn(8, 5)
    num_real_nodes, num_clusters = 6, 3
    assignment = torch.tensor([0, 2, 1, 0, 2, 2])
    cluster_index = assignment.unsqueeze(1).expand(num_real_nodes, 4)
    pooled = pool(node_feats, cluster_index, num_clusters)
    pooled.pow(2).sum().backward()
    feats = node_feats.clone().requires_grad_(True)
    h = pool.proj(feats)
    ref = torch.zeros(num_clusters, 4)
    for i in range(num_real_nodes):
        ref[assignment[i]] = ref[assignment[i]] + h[i]
    assert torch.allclose(pooled, ref, atol=1e-6)
    w_grad = pool.proj.weight.grad.clone()
    pool.proj.weight.grad = None
    ref.pow(2).sum().backward()
    assert torch.allclose(w_grad, pool.proj.weight.grad, atol=1e-5)
    print("ok")
