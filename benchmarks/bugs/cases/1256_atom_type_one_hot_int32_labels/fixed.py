import torch
import torch.nn as nn
import torch.nn.functional as F


class AtomEncoder(nn.Module):
    def __init__(self, num_atom_types: int, hidden: int):
        super().__init__()
        self.num_atom_types = num_atom_types
        self.lin = nn.Linear(num_atom_types, hidden)

    def forward(self, atom_types):
        x = F.one_hot(atom_types.long(), self.num_atom_types).float()
        return self.lin(x)


class MoleculeReadout(nn.Module):
    def __init__(self, num_atom_types: int, hidden: int):
        super().__init__()
        self.encoder = AtomEncoder(num_atom_types, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, atom_types, batch, num_graphs: int):
        h = torch.relu(self.encoder(atom_types))
        pooled = torch.zeros(num_graphs, h.size(1)).index_add_(0, batch, h)
        return self.head(pooled).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MoleculeReadout(num_atom_types=5, hidden=8)
    # the dataset stores compact per-atom arrays
    atom_types = torch.tensor([0, 3, 1, 1, 4, 2, 0, 3, 2], dtype=torch.int32)
    batch = torch.tensor([0, 0, 0, 1, 1, 1, 1, 2, 2], dtype=torch.int32)
    out = model(atom_types, batch, num_graphs=3)
    with torch.no_grad():
        W, b0 = model.encoder.lin.weight, model.encoder.lin.bias
        for g in range(3):
            pooled = torch.zeros(8)
            for i in range(len(atom_types)):
                if int(batch[i]) == g:
                    pooled += torch.relu(W[:, int(atom_types[i])] + b0)
            ref = (model.head.weight[0] * pooled).sum() + model.head.bias[0]
            assert abs(out[g].item() - ref.item()) < 1e-5
    print("ok")
