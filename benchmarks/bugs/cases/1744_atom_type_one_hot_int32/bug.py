import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"num_atom_types": 5, "hidden": 8, "seed": 0}


def load_molecules(cfg):
    # atom types come out of the preprocessing cache as compact int32 arrays
    rng = np.random.default_rng(cfg["seed"])
    mols = [rng.integers(0, cfg["num_atom_types"], size=n).astype(np.int32) for n in (4, 7, 3)]
    z = torch.from_numpy(np.concatenate(mols))
    batch = torch.cat([torch.full((len(m),), i) for i, m in enumerate(mols)])
    return {"z": z, "batch": batch, "num_graphs": len(mols)}


class AtomEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.num_types = cfg["num_atom_types"]
        self.lin = nn.Linear(cfg["num_atom_types"], cfg["hidden"])

    def forward(self, data):
        x = F.one_hot(data["z"], num_classes=self.num_types).float()
        h = self.lin(x)
        pooled = h.new_zeros(data["num_graphs"], h.size(1)).index_add_(0, data["batch"], h)
        return pooled


if __name__ == "__main__":
    torch.manual_seed(CONFIG["seed"])
    data = load_molecules(CONFIG)
    enc = AtomEncoder(CONFIG)
    with torch.no_grad():
        out = enc(data)
        ref = torch.zeros(data["num_graphs"], CONFIG["hidden"])
        for i in range(len(data["z"])):
            onehot = torch.zeros(CONFIG["num_atom_types"])
            onehot[int(data["z"][i])] = 1.0
            ref[int(data["batch"][i])] += enc.lin(onehot)
    print("graph embedding max |diff|:", (out - ref).abs().max().item())
