import torch
import torch.nn as nn


class LineMessagePassing(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim
        self.line_mlp = nn.Linear(2 * dim, dim)

    def forward(self, junc_desc, lines_junc_idx):
        b, _, n_junc = junc_desc.shape
        ends = junc_desc.gather(2, lines_junc_idx[:, None].repeat(1, self.dim, 1))
        ends = ends.reshape(b, self.dim, -1, 2).permute(0, 2, 3, 1).flatten(2)
        line_update = self.line_mlp(ends)
        line_update = line_update.repeat_interleave(2, dim=1).transpose(1, 2)
        update = torch.zeros(b, self.dim, n_junc, device=junc_desc.device)
        update = update.scatter_reduce_(
            dim=2,
            index=lines_junc_idx[:, None].repeat(1, self.dim, 1),
            src=line_update,
            reduce="mean",
            include_self=False,
        )
        return junc_desc + update


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = LineMessagePassing(dim=16)
    junc_desc = torch.randn(2, 16, 10)
    lines_junc_idx = torch.randint(0, 10, (2, 12))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = layer(junc_desc, lines_junc_idx)
    print(out.shape, out.dtype)
