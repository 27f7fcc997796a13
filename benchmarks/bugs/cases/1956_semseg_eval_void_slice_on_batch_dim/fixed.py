import torch
from torch import nn

SEG_IGNORE_INDEX = 255


class SegHead(nn.Module):
    def __init__(self, in_chans, num_classes, void_bias=0.0):
        super().__init__()
        # one extra output channel for the void / padding class
        self.proj = nn.Conv2d(in_chans, num_classes + 1, kernel_size=1)
        with torch.no_grad():
            self.proj.bias[num_classes] += void_bias

    def forward(self, x):
        return self.proj(x)


def intersect_and_union(pred, label, num_classes, ignore_index):
    mask = label != ignore_index
    pred = pred[mask]
    label = label[mask]
    intersect = pred[pred == label]
    area_intersect = torch.histc(intersect.float(), bins=num_classes, min=0, max=num_classes - 1)
    area_pred = torch.histc(pred.float(), bins=num_classes, min=0, max=num_classes - 1)
    area_label = torch.histc(label.float(), bins=num_classes, min=0, max=num_classes - 1)
    area_union = area_pred + area_label - area_intersect
    return area_intersect, area_union


def compute_metrics(seg_preds, seg_gts, num_classes, ignore_index=SEG_IGNORE_INDEX):
    # Replace void by ignore in gt (void is never counted in mIoU)
    for seg_gt in seg_gts:
        # Void label is equal to num_classes
        seg_gt[seg_gt == num_classes] = ignore_index
    total_intersect = torch.zeros(num_classes)
    total_union = torch.zeros(num_classes)
    for pred, gt in zip(seg_preds, seg_gts):
        inter, union = intersect_and_union(pred, gt, num_classes, ignore_index)
        total_intersect += inter
        total_union += union
    iou = total_intersect / total_union.clamp(min=1)
    return {"mean_iou": iou[total_union > 0].mean().item()}


@torch.no_grad()
def evaluate(model, data_loader, num_classes):
    seg_preds = []
    seg_gts = []
    for x in data_loader:
        seg_pred, seg_gt = model(x["rgb"]), x["semseg"]
        # If there is void, exclude it from the preds and take second highest class
        seg_pred_argmax = seg_pred[:, :num_classes].argmax(dim=1)
        seg_preds.extend(list(seg_pred_argmax))
        seg_gts.extend(list(seg_gt.clone()))
    return compute_metrics(seg_preds, seg_gts, num_classes=num_classes)


def make_loader(num_batches, batch_size, num_classes, size):
    batches = []
    for _ in range(num_batches):
        rgb = torch.randn(batch_size, 3, size, size)
        semseg = torch.randint(0, num_classes, (batch_size, size, size))
        semseg[:, :, -2:] = num_classes  # right border is padding, labelled void
        batches.append({"rgb": rgb, "semseg": semseg})
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    num_classes = 6
    model = SegHead(in_chans=3, num_classes=num_classes, void_bias=1.5).eval()
    loader = make_loader(num_batches=3, batch_size=2, num_classes=num_classes, size=12)
    scores = evaluate(model, loader, num_classes)

    inter = [0] * num_classes
    union = [0] * num_classes
    with torch.no_grad():
        for b in loader:
            logits = model(b["rgb"])
            for n in range(logits.shape[0]):
                for i in range(logits.shape[2]):
                    for j in range(logits.shape[3]):
                        gt = int(b["semseg"][n, i, j])
                        if gt == num_classes:
                            continue
                        scores_ij = logits[n, :num_classes, i, j].tolist()
                        pred = max(range(num_classes), key=lambda c: scores_ij[c])
                        for c in range(num_classes):
                            in_pred, in_gt = pred == c, gt == c
                            inter[c] += int(in_pred and in_gt)
                            union[c] += int(in_pred or in_gt)
    ious = [inter[c] / union[c] for c in range(num_classes) if union[c] > 0]
    expected = sum(ious) / len(ious)
    assert abs(scores["mean_iou"] - expected) < 1e-5, (scores, expected)
    print("ok")
