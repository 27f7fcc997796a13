import torch
import torch.nn as nn


class MultiStreamEmbedding(nn.Module):
    def __init__(self, stream_channels, dim_embed):
        super().__init__()
        self.dim_embed = dim_embed
        self.embeds = nn.ModuleDict({name: nn.Linear(c, dim_embed) for name, c in stream_channels.items()})

    def forward(self, streams, slots, num_slots):
        # streams[name]: [T_s, C_s]   raw tokens of one input stream
        # slots[name]:   [T_s]        row of each token in the cell-ordered buffer
        # returns:       [num_slots, dim_embed]
        scatter_idxs = []
        for name, x in streams.items():
            x_embed = self.embeds[name](x)  # [T_s, dim_embed]
            scatter_idxs.append(slots[name])
        scatter_idxs = torch.cat(scatter_idxs)  # [T_total]
        scatter_idxs = scatter_idxs.unsqueeze(1).repeat((1, self.dim_embed))  # [T_total, dim_embed]
        tokens_all = torch.zeros(num_slots, self.dim_embed)  # [num_slots, dim_embed]
        tokens_all.scatter_(0, scatter_idxs, x_embed)
        return tokens_all


def cell_ordered_slots(cells_per_stream):
    # cells_per_stream[name]: [T_s] healpix cell of each token; tokens are stored cell by cell
    names = list(cells_per_stream)
    cells = torch.cat([cells_per_stream[n] for n in names])  # [T_total]
    order = torch.argsort(cells, stable=True)  # [T_total]
    slot_of = torch.empty_like(order)
    slot_of[order] = torch.arange(order.numel())
    out, start = {}, 0
    for n in names:
        t = cells_per_stream[n].numel()
        out[n] = slot_of[start:start + t]
        start += t
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    streams = {"era5": torch.randn(6, 5), "synop": torch.randn(4, 3)}
    cells = {"era5": torch.tensor([0, 1, 1, 2, 3, 3]), "synop": torch.tensor([1, 3, 0, 2])}
    model = MultiStreamEmbedding({"era5": 5, "synop": 3}, dim_embed=8)
    tokens = model(streams, cell_ordered_slots(cells), num_slots=10)
    print("tokens_all:", tuple(tokens.shape))
