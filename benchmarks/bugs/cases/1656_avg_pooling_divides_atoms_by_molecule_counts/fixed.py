import torch
import torch.nn as nn


def scatter_add(x, idx_i, dim_size, dim=0):
    shape = list(x.shape)
    shape[dim] = dim_size
    out = torch.zeros(shape, dtype=x.dtype, device=x.device)
    return out.index_add(dim, idx_i, x)


class Atomwise(nn.Module):
    def __init__(self, n_in, n_out=1, n_hidden=None, aggregation_mode="sum", output_key="energy"):
        super().__init__()
        n_hidden = n_hidden or n_in // 2
        self.outnet = nn.Sequential(nn.Linear(n_in, n_hidden), nn.SiLU(), nn.Linear(n_hidden, n_out))
        self.aggregation_mode = aggregation_mode
        self.output_key = output_key

    def forward(self, inputs):
        y = self.outnet(inputs["scalar_representation"])

        if self.aggregation_mode is not None:
            idx_m = inputs["_idx_m"]
            maxm = int(idx_m[-1]) + 1
            y = scatter_add(y, idx_m, dim_size=maxm)
            y = torch.squeeze(y, -1)

            if self.aggregation_mode == "avg":
                y = y / inputs["_n_atoms"]

        inputs[self.output_key] = y
        return inputs


def collate(representations):
    n_atoms = torch.tensor([r.shape[0] for r in representations])
    idx_m = torch.repeat_interleave(torch.arange(len(representations)), n_atoms)
    return {"scalar_representation": torch.cat(representations), "_n_atoms": n_atoms, "_idx_m": idx_m}


if __name__ == "__main__":
    torch.manual_seed(0)
    molecules = [torch.randn(9, 32), torch.randn(5, 32), torch.randn(3, 32), torch.randn(6, 32)]
    batch = collate(molecules)
    head = Atomwise(n_in=32, aggregation_mode="avg", output_key="mean_energy")
    with torch.no_grad():
        out = head(batch)["mean_energy"]
        ref = torch.stack([head.outnet(m).squeeze(-1).sum() / m.shape[0] for m in molecules])
    assert out.shape == (len(molecules),)
    assert torch.allclose(out, ref, atol=1e-6), (out, ref)
    print("ok")
