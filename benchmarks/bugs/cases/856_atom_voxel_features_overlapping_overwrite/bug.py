import torch
from jaxtyping import Float, Int

ELEMENTS = ["C", "N", "O", "S"]


def atom_features(
    elements: Int[torch.Tensor, "atoms"], occupancy: Float[torch.Tensor, "atoms"]
) -> Float[torch.Tensor, "atoms feat"]:
    onehot = torch.nn.functional.one_hot(elements, len(ELEMENTS)).float()
    return torch.cat([onehot, occupancy[:, None]], dim=1)


def voxel_ids(
    coords: Float[torch.Tensor, "atoms 3"], origin: Float[torch.Tensor, "3"], spacing: float, size: int
) -> Int[torch.Tensor, "atoms"]:
    cell = ((coords - origin) / spacing).floor().long().clamp(0, size - 1)
    return (cell[:, 0] * size + cell[:, 1]) * size + cell[:, 2]


def voxelize(
    coords: Float[torch.Tensor, "atoms 3"],
    feats: Float[torch.Tensor, "atoms feat"],
    spacing: float = 1.0,
    size: int = 8,
) -> Float[torch.Tensor, "feat size size size"]:
    origin = coords.min(dim=0).values
    ids = voxel_ids(coords, origin, spacing, size)
    grid = feats.new_zeros(size**3, feats.shape[1])
    grid.scatter_(0, ids[:, None].expand_as(feats), feats)
    return grid.T.reshape(feats.shape[1], size, size, size)


if __name__ == "__main__":
    torch.manual_seed(0)
    coords = torch.rand(40, 3) * 6.0
    elements = torch.randint(0, len(ELEMENTS), (40,))
    occupancy = torch.rand(40)
    feats = atom_features(elements, occupancy)
    grid = voxelize(coords, feats)
    print("voxels with several element channels set:", int((grid[:4].flatten(1).sum(0) > 1).sum()))
    print("element channel mass:", grid[:4].sum().item(), "atoms:", len(coords))
