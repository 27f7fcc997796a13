import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor

SYMBOLS = ("H", "C", "N", "O")


class AtomicNetwork(nn.Module):
    def __init__(self, layer_dims):
        super().__init__()
        layers = []
        for d_in, d_out in zip(layer_dims[:-2], layer_dims[1:-1]):
            layers += [nn.Linear(d_in, d_out), nn.GELU()]
        self.body = nn.Sequential(*layers)
        self.final_layer = nn.Linear(layer_dims[-2], layer_dims[-1], bias=False)

    def forward(self, x: Float[Tensor, "n feat"]) -> Float[Tensor, "n out"]:
        return self.final_layer(self.body(x))


class SingleNN(nn.Module):
    """One network shared by all elements; its output has one column per element,
    and each atom reads the column of its own element.

    Padding atoms in ``elem_idxs`` are marked with -1.
    """

    def __init__(self, symbols, network: AtomicNetwork):
        super().__init__()
        if network.final_layer.weight.shape[0] != len(symbols):
            raise ValueError("Output of final layer must be equal to the species num for SingleNN")
        self.num_species = len(symbols)
        self.network = network

    def forward(
        self,
        elem_idxs: Int[Tensor, "molecules atoms"],
        aevs: Float[Tensor, "molecules atoms aev"],
        atomic: bool = False,
    ) -> Float[Tensor, "..."]:
        assert elem_idxs.shape == aevs.shape[:-1]
        flat_elem_idxs = elem_idxs.flatten()
        non_dummy_idxs = (flat_elem_idxs != -1).nonzero().view(-1)
        flat_elem_idxs_nondummy = flat_elem_idxs[non_dummy_idxs]
        output = self.network(aevs.flatten(0, 1)[non_dummy_idxs])
        output = torch.gather(output, 1, flat_elem_idxs_nondummy.unsqueeze(1)).view(-1)
        scalars = aevs.new_zeros(flat_elem_idxs.shape)
        scalars.index_add_(0, non_dummy_idxs, output)
        scalars = scalars.view_as(elem_idxs)
        if atomic:
            return scalars
        return scalars.sum(dim=1)


def build_single_nn(symbols, aev_dim, hidden=(32, 16)):
    return SingleNN(symbols, AtomicNetwork((aev_dim,) + hidden + (len(symbols),)))


def pad_batch(species_lists, aev_dim, seed=0):
    g = torch.Generator().manual_seed(seed)
    atoms = max(len(s) for s in species_lists)
    elem_idxs = torch.full((len(species_lists), atoms), -1, dtype=torch.long)
    aevs = torch.zeros(len(species_lists), atoms, aev_dim)
    for m, species in enumerate(species_lists):
        elem_idxs[m, : len(species)] = torch.tensor([SYMBOLS.index(s) for s in species])
        aevs[m, : len(species)] = torch.randn(len(species), aev_dim, generator=g)
    return elem_idxs, aevs


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_single_nn(SYMBOLS, aev_dim=24)
    # water, methane and ammonia in one padded batch
    elem_idxs, aevs = pad_batch([["O", "H", "H"], ["C", "H", "H", "H", "H"], ["N", "H", "H", "H"]], 24)
    energies = model(elem_idxs, aevs)
    ref = torch.zeros(elem_idxs.size(0))
    for m in range(elem_idxs.size(0)):
        for a in range(elem_idxs.size(1)):
            e = int(elem_idxs[m, a])
            if e != -1:
                ref[m] += model.network(aevs[m, a].unsqueeze(0))[0, e]
    assert torch.allclose(energies, ref, atol=1e-5), (energies, ref)
    print("ok")
