import torch
import torch.nn as nn
import torch.nn.functional as F


class VoxelGrid:
    def __init__(self, origin, voxel_size, dims):
        self.origin = torch.tensor(origin)
        self.voxel_size = voxel_size
        self.dims = dims

    def flat_index(self, xyz):
        ijk = ((xyz - self.origin) / self.voxel_size).floor().long()
        nx, ny, nz = self.dims
        return (ijk[:, 0] * ny + ijk[:, 1]) * nz + ijk[:, 2]


def voxelize_labels(grid, xyz, point_labels, num_classes, ignore_index=-100):
    num_voxels = grid.dims[0] * grid.dims[1] * grid.dims[2]
    vidx = grid.flat_index(xyz)
    votes = torch.zeros(num_voxels, num_classes, dtype=torch.long)
    votes.index_put_((vidx, point_labels), torch.ones_like(vidx), accumulate=True)
    voxel_labels = votes.argmax(dim=1)
    voxel_labels[votes.sum(dim=1) == 0] = ignore_index
    return voxel_labels


class VoxelSegHead(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.cls = nn.Linear(8, num_classes)

    def forward(self, voxel_feats):
        return self.cls(voxel_feats)


if __name__ == "__main__":
    torch.manual_seed(0)
    grid = VoxelGrid(origin=[0.0, 0.0, 0.0], voxel_size=0.5, dims=(4, 4, 2))
    # floor (class 1) around the foot of a chair leg (class 3)
    xyz = torch.tensor([[0.60, 0.60, 0.05], [0.70, 0.55, 0.10], [0.90, 0.80, 0.02],
                        [0.75, 0.65, 0.40], [1.60, 0.20, 0.10], [1.70, 1.80, 0.70]])
    labels = torch.tensor([1, 1, 1, 3, 1, 2])
    voxel_labels = voxelize_labels(grid, xyz, labels, num_classes=5)
    head = VoxelSegHead(num_classes=5)
    logits = head(torch.randn(voxel_labels.numel(), 8))
    loss = F.cross_entropy(logits, voxel_labels, ignore_index=-100)
    v = grid.flat_index(xyz[:1]).item()
    print("label of the floor voxel:", voxel_labels[v].item())
    print("loss:", loss.item())

    # loop reference: majority vote per voxel
    votes = {}
    for p in range(xyz.size(0)):
        key = grid.flat_index(xyz[p:p + 1]).item()
        votes.setdefault(key, []).append(labels[p].item())
    ref = torch.full((32,), -100, dtype=torch.long)
    for key, ls in votes.items():
        ref[key] = max(set(ls), key=ls.count)
    assert torch.equal(voxel_labels, ref)
    assert voxel_labels[v].item() == 1
    print("ok")
