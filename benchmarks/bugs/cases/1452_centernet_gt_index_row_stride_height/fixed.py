import torch
import torch.nn.functional as F


class CenterNetGT:
    def __init__(self, num_classes, output_size, down_ratio=4, max_objs=32):
        self.num_classes = num_classes
        self.output_size = output_size  # (height, width) of the head output
        self.down_ratio = down_ratio
        self.max_objs = max_objs

    def generate(self, boxes):
        gt_wh = torch.zeros(self.max_objs, 2)
        gt_index = torch.zeros(self.max_objs, dtype=torch.long)
        gt_mask = torch.zeros(self.max_objs)
        boxes = boxes / self.down_ratio
        centers = (boxes[:, :2] + boxes[:, 2:]) / 2
        centers_int = centers.floor().long()
        num_boxes = boxes.size(0)
        gt_wh[:num_boxes] = boxes[:, 2:] - boxes[:, :2]
        gt_index[:num_boxes] = centers_int[..., 1] * self.output_size[1] + centers_int[..., 0]
        gt_mask[:num_boxes] = 1
        return gt_wh, gt_index, gt_mask


def gather_feature(fmap, index):
    batch, channel = fmap.shape[:2]
    fmap = fmap.view(batch, channel, -1).permute(0, 2, 1).contiguous()
    index = index.unsqueeze(-1).expand(-1, -1, channel)
    return fmap.gather(1, index)


def reg_l1_loss(output, mask, index, target):
    pred = gather_feature(output, index)
    mask = mask.unsqueeze(-1).expand_as(pred)
    return F.l1_loss(pred * mask, target * mask, reduction="sum") / (mask.sum() + 1e-4)


def paint_wh(pred, boxes_per_image, down_ratio):
    for b, boxes in enumerate(boxes_per_image):
        for x1, y1, x2, y2 in (boxes / down_ratio).tolist():
            cx, cy = int((x1 + x2) / 2), int((y1 + y2) / 2)
            pred[b, 0, cy, cx] = x2 - x1
            pred[b, 1, cy, cx] = y2 - y1


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = CenterNetGT(num_classes=3, output_size=(96, 160), down_ratio=4)
    boxes_per_image = [
        torch.tensor([[40.0, 60.0, 120.0, 180.0], [400.0, 100.0, 520.0, 300.0], [560.0, 300.0, 630.0, 370.0]]),
        torch.tensor([[10.0, 20.0, 90.0, 70.0], [300.0, 200.0, 460.0, 380.0]]),
    ]
    targets = [encoder.generate(b) for b in boxes_per_image]
    gt_wh = torch.stack([t[0] for t in targets])
    gt_index = torch.stack([t[1] for t in targets])
    gt_mask = torch.stack([t[2] for t in targets])

    wh_pred = torch.zeros(2, 2, 96, 160)
    paint_wh(wh_pred, boxes_per_image, encoder.down_ratio)
    loss = reg_l1_loss(wh_pred, gt_mask, gt_index, gt_wh)
    assert loss.item() < 1e-3

    pred_rand = torch.randn(2, 2, 96, 160)
    gathered = gather_feature(pred_rand, gt_index)
    for b, boxes in enumerate(boxes_per_image):
        for j, (x1, y1, x2, y2) in enumerate((boxes / encoder.down_ratio).tolist()):
            cx, cy = int((x1 + x2) / 2), int((y1 + y2) / 2)
            assert gathered[b, j, 0].item() == pred_rand[b, 0, cy, cx].item()
            assert gathered[b, j, 1].item() == pred_rand[b, 1, cy, cx].item()
    print("ok")
