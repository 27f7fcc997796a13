import torch
import torch.nn as nn
from jaxtyping import Float, Int


class MultiHeadConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, heads: int):
        super().__init__()
        self.heads, self.out_channels = heads, out_channels
        self.lin = nn.Linear(in_channels, heads * out_channels, bias=False)
        self.att = nn.Parameter(torch.randn(1, heads, 2 * out_channels) * 0.1)

    def message(self, x_i: Float[torch.Tensor, "E H C"], x_j: Float[torch.Tensor, "E H C"],
                dst: Int[torch.Tensor, "E"], num_nodes: int) -> Float[torch.Tensor, "E H C"]:
        score = (torch.cat([x_i, x_j], dim=-1) * self.att).sum(-1)  # [E, H]
        score = score - score.max()
        w = score.exp()
        denom = torch.zeros(num_nodes, self.heads).index_add_(0, dst, w)
        alpha = w / denom[dst]
        return (x_j * alpha.unsqueeze(-1)).sum(dim=1)

    def forward(self, x: Float[torch.Tensor, "N F"], edge_index: Int[torch.Tensor, "2 E"]) -> Float[torch.Tensor, "N HC"]:
        N, H, C = x.size(0), self.heads, self.out_channels
        h = self.lin(x).view(N, H, C)
        src, dst = edge_index
        msg = self.message(h[dst], h[src], dst, N)
        out = torch.zeros(N, H * C)
        index = dst.view(-1, 1).expand(-1, H * C)
        return out.scatter_add_(0, index, msg)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(5, 6)
    edge_index = torch.tensor([[0, 1, 2, 3, 4, 0, 2], [1, 0, 1, 2, 3, 4, 4]])
    conv = MultiHeadConv(6, 4, heads=2)
    print(conv(x, edge_index).shape)
