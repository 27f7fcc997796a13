import torch
import torch.nn as nn


class MeanConv(nn.Module):
    """Mean of the transformed features of incoming neighbours (messages flow src -> dst)."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index
        messages = self.lin(x).index_select(0, src)
        summed = torch.zeros(x.size(0), messages.size(1)).index_add_(0, dst, messages)
        deg = torch.zeros(x.size(0)).scatter_add_(0, edge_index[0], torch.ones(src.numel()))
        return summed / deg.clamp(min=1).unsqueeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(6, 4)
    # directed citation graph: paper i cites paper j  ->  edge (i, j)
    edge_index = torch.tensor([[0, 0, 0, 1, 2, 3, 4, 5, 5],
                               [1, 2, 3, 2, 3, 4, 5, 0, 3]])
    conv = MeanConv(4, 8)
    with torch.no_grad():
        out = conv(x, edge_index)
        h = conv.lin(x)
    print("node 3 aggregated:", out[3, :3].tolist())
    print("mean of its in-neighbours (0, 2, 5):", h[[0, 2, 5]].mean(0)[:3].tolist())
