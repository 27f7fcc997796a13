import math

import torch


class CameraBoxes:
    box_dim = 7

    def __init__(self, tensor):
        if tensor.size(-1) != self.box_dim:
            raise ValueError(f"expected {self.box_dim} values per box, got {tensor.size(-1)}")
        self.tensor = tensor

    @property
    def center(self):
        return self.tensor[:, :3]

    @property
    def dims(self):
        return self.tensor[:, 3:6]

    @property
    def yaw(self):
        return self.tensor[:, 6]

    def __len__(self):
        return self.tensor.size(0)


class NuscBoxRecord:
    def __init__(self, center, wlh, yaw, score):
        self.center = center
        self.wlh = wlh
        self.yaw = yaw
        self.score = score


def cam_boxes_to_records(boxes, scores):
    dims = boxes.dims.clone()
    dims[:, [0, 1, 2]] = dims[:, [2, 0, 1]]
    yaw = -boxes.yaw
    return [
        NuscBoxRecord(boxes.center[i].tolist(), dims[i].tolist(), yaw[i].item(), scores[i].item())
        for i in range(len(boxes))
    ]


def records_to_cam_boxes(records):
    locs = torch.tensor([r.center for r in records])
    dims = torch.tensor([r.wlh for r in records])
    rots = torch.tensor([[r.yaw] for r in records])
    dims[:, [0, 1, 2]] = dims[:, [2, 0, 1]]
    rots = -rots
    return CameraBoxes(torch.cat([locs, dims, rots], dim=1))


def merge_camera_results(per_camera, score_thr):
    merged = []
    for boxes, scores in per_camera:
        merged.extend(r for r in cam_boxes_to_records(boxes, scores) if r.score >= score_thr)
    merged.sort(key=lambda r: -r.score)
    return records_to_cam_boxes(merged), merged


if __name__ == "__main__":
    front = CameraBoxes(torch.tensor([
        [1.2, 1.5, 12.0, 4.5, 1.6, 1.9, 0.3],
        [-3.0, 1.4, 20.0, 10.2, 3.4, 2.6, -1.2],
    ]))
    left = CameraBoxes(torch.tensor([
        [0.4, 1.7, 8.0, 0.8, 1.8, 0.7, math.pi / 2],
    ]))
    per_camera = [(front, torch.tensor([0.91, 0.55])), (left, torch.tensor([0.78]))]
    boxes, records = merge_camera_results(per_camera, score_thr=0.3)
    print("car (l, h, w) before:", front.dims[0].tolist())
    print("car (l, h, w) after the round trip:", boxes.dims[0].tolist())
