import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class HumanDetectionTargets:
    """Builds the 2D proposal targets of the human detection net from 3D root joints."""

    def __init__(self, space_size, space_center, voxels_per_axis, individual_space_size, max_people=4):
        self.space_size = space_size                      # [3] mm
        self.space_center = space_center                  # [3] mm
        self.voxels_per_axis = voxels_per_axis            # [3] = X, Y, Z
        self.individual_space_size = individual_space_size
        self.max_people = max_people

    def generate_target(self, joints_3d, joints_3d_vis, root_id=2):
        # joints_3d: [P, J, 3], joints_3d_vis: [P, J]
        num_people = len(joints_3d)
        space_size = np.array(self.space_size)
        space_center = np.array(self.space_center)
        individual_space_size = np.array(self.individual_space_size)
        voxels_per_axis = np.array(self.voxels_per_axis)
        voxel_size = space_size / (voxels_per_axis - 1)

        target_index = np.zeros((self.max_people))                       # [M]
        target_offset = np.zeros((self.max_people, 2), dtype=np.float32)  # [M, 2]
        target_bbox = np.zeros((self.max_people, 2), dtype=np.float32)    # [M, 2]

        for n in range(num_people):
            idx = joints_3d_vis[n] > 0.1
            center_pos = joints_3d[n][root_id]
            loc = (center_pos - space_center + 0.5 * space_size) / voxel_size
            assert np.sum(loc < 0) == 0 and np.sum(loc > voxels_per_axis) == 0, "human centers out of bound!"
            # flatten 2d index
            target_index[n] = (loc // 1)[0] * voxels_per_axis[0] + (loc // 1)[1]
            target_offset[n] = (loc % 1)[:2]
            target_bbox[n] = ((2 * np.abs(center_pos - joints_3d[n][idx]).max(axis=0) + 200.0)
                              / individual_space_size)[:2]

        return {"index": target_index, "offset": target_offset, "bbox": target_bbox}


class CenterNetHead(nn.Module):
    def __init__(self, in_channels=8):
        super().__init__()
        self.hm = nn.Conv2d(in_channels, 1, 3, padding=1)
        self.size = nn.Conv2d(in_channels, 2, 3, padding=1)
        self.offset = nn.Conv2d(in_channels, 2, 3, padding=1)

    def forward(self, feats):
        # feats: [B, C, X, Y]
        return self.hm(feats).sigmoid(), self.size(feats), self.offset(feats)


def bbox_and_offset_loss(head_out, targets, num_person):
    proposal_heatmaps_2d, bbox_preds, offset_preds = head_out
    batch_size = bbox_preds.shape[0]
    bbox_preds = bbox_preds.flatten(2).permute(0, 2, 1)        # [B, X*Y, 2]
    offset_preds = offset_preds.flatten(2).permute(0, 2, 1)    # [B, X*Y, 2]

    index = targets["index"].long().view(batch_size, -1, 1).repeat(1, 1, 2)   # [B, M, 2]
    bbox_preds = torch.gather(bbox_preds, 1, index)            # [B, M, 2]
    offset_preds = torch.gather(offset_preds, 1, index)        # [B, M, 2]

    mask = (torch.arange(targets["bbox"].shape[1])[None, :] < num_person[:, None]).float()  # [B, M]
    loss_bbox = F.l1_loss(bbox_preds * mask[..., None], targets["bbox"] * mask[..., None], reduction="sum")
    loss_offset = F.l1_loss(offset_preds * mask[..., None], targets["offset"] * mask[..., None], reduction="sum")
    return loss_bbox / mask.sum(), loss_offset / mask.sum(), bbox_preds


def collate(target_list):
    return {k: torch.as_tensor(np.stack([t[k] for t in target_list])) for k in target_list[0]}


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    # a rectangular capture space: 8m along x, 6m along y
    targets_builder = HumanDetectionTargets(
        space_size=[8000.0, 6000.0, 2000.0], space_center=[0.0, 0.0, 800.0],
        voxels_per_axis=[16, 12, 8], individual_space_size=[2000.0, 2000.0, 2000.0])

    def person_at(x, y):
        joints = rng.normal(0.0, 150.0, size=(5, 3)) + np.array([x, y, 900.0])
        return joints

    scenes = [
        [person_at(-2500.0, 1000.0), person_at(500.0, -1800.0)],
        [person_at(3500.0, 500.0), person_at(-800.0, 2200.0), person_at(1200.0, 0.0)],
    ]
    target_list = []
    for people in scenes:
        joints = np.stack(people)
        target_list.append(targets_builder.generate_target(joints, np.ones(joints.shape[:2])))
    targets = collate(target_list)
    num_person = torch.tensor([len(s) for s in scenes])

    feats = torch.randn(2, 8, 16, 12)             # [B, C, X, Y]
    head = CenterNetHead(8)
    loss_bbox, loss_offset, _ = bbox_and_offset_loss(head(feats), targets, num_person)
    print("loss_bbox", round(loss_bbox.item(), 4), "loss_offset", round(loss_offset.item(), 4))
