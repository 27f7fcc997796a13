from dataclasses import dataclass

import torch
from jaxtyping import Float, Int


@dataclass
class VoxelGrid:
    dims: Float[torch.Tensor, "3"]
    voxel_size: float
    origin: Float[torch.Tensor, "3"]
    esdf: Float[torch.Tensor, "nx ny nz"]


def grid_from_mapper(esdf: Float[torch.Tensor, "nx ny nz"], voxel_size: float) -> VoxelGrid:
    shape = torch.tensor(esdf.shape, dtype=torch.float32)
    return VoxelGrid(dims=shape * voxel_size, voxel_size=voxel_size,
                     origin=torch.zeros(3), esdf=esdf)


def pack_params(grid: VoxelGrid) -> Float[torch.Tensor, "4"]:
    ratio = grid.dims / grid.voxel_size
    return torch.cat([ratio, torch.tensor([grid.voxel_size])])


def query_sphere_sdf(
    params: Float[torch.Tensor, "4"],
    flat_esdf: Float[torch.Tensor, "n_voxels"],
    origin: Float[torch.Tensor, "3"],
    centers: Float[torch.Tensor, "n_spheres 3"],
    radii: Float[torch.Tensor, "n_spheres"],
) -> Float[torch.Tensor, "n_spheres"]:
    shape: Int[torch.Tensor, "3"] = params[:3].to(torch.int64)
    voxel_size = params[3]
    ijk = ((centers - origin) / voxel_size).floor().to(torch.int64)
    ijk = torch.minimum(ijk.clamp(min=0), shape - 1)
    flat = ijk[:, 0] * shape[1] * shape[2] + ijk[:, 1] * shape[2] + ijk[:, 2]
    return flat_esdf.gather(0, flat) - radii


if __name__ == "__main__":
    torch.manual_seed(0)
    nx, ny, nz = 40, 60, 54
    esdf = torch.randn(nx, ny, nz)
    grid = grid_from_mapper(esdf, voxel_size=0.01)
    params = pack_params(grid)
    centers = torch.rand(6, 3) * torch.tensor([nx, ny, nz]) * 0.01
    radii = torch.full((6,), 0.02)
    dist = query_sphere_sdf(params, grid.esdf.reshape(-1), grid.origin, centers, radii)
    print("grid ratio:", params[:3].tolist())
    print("sphere distances:", dist)
