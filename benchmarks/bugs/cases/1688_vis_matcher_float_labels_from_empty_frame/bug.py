import torch

COCO_TO_YTVIS = {1: 26, 3: 7, 18: 9, 21: 11}


def annotations_to_targets(annos, num_frames, height, width):
    annos = [obj for obj in annos if obj.get("iscrowd", 0) == 0]
    gt_classes = torch.tensor([COCO_TO_YTVIS.get(obj["category_id"], -1) for obj in annos])
    gt_masks = torch.zeros(len(annos), num_frames, height, width, dtype=torch.bool)
    for i, obj in enumerate(annos):
        y0, x0, y1, x1 = obj["box"]
        gt_masks[i, :, y0:y1, x0:x1] = True
    return {"labels": gt_classes, "masks": gt_masks}


def greedy_assignment(cost):
    used, pairs = set(), []
    for j in range(cost.shape[1]):
        order = [i for i in cost[:, j].argsort().tolist() if i not in used]
        used.add(order[0])
        pairs.append((order[0], j))
    src = torch.tensor([p[0] for p in pairs], dtype=torch.long)
    tgt = torch.tensor([p[1] for p in pairs], dtype=torch.long)
    return src, tgt


class VideoHungarianMatcher:
    def __init__(self, cost_class=2.0, cost_mask=5.0):
        self.cost_class = cost_class
        self.cost_mask = cost_mask

    @torch.no_grad()
    def memory_efficient_forward(self, outputs, targets):
        bs, num_queries = outputs["pred_logits"].shape[:2]
        indices = []
        for b in range(bs):
            out_prob = outputs["pred_logits"][b].softmax(-1)  # [num_queries, num_classes + 1]
            tgt_ids = targets[b]["labels"]
            # approximate the NLL by 1 - proba[target class]; the 1 is a constant
            cost_class = -out_prob[:, tgt_ids]  # [num_queries, num_gt]
            out_mask = outputs["pred_masks"][b].flatten(1).sigmoid()  # [num_queries, T*H*W]
            tgt_mask = targets[b]["masks"].flatten(1).float()  # [num_gt, T*H*W]
            cost_mask = torch.cdist(out_mask, tgt_mask, p=1) / tgt_mask.shape[1]
            C = self.cost_class * cost_class + self.cost_mask * cost_mask
            indices.append(greedy_assignment(C))
        return indices


if __name__ == "__main__":
    torch.manual_seed(0)
    clip_annos = [
        [{"category_id": 1, "box": (2, 2, 10, 8)}, {"category_id": 18, "box": (6, 4, 14, 14)}],
        [{"category_id": 1, "box": (0, 0, 16, 16), "iscrowd": 1}],
    ]
    targets = [annotations_to_targets(a, num_frames=2, height=16, width=16) for a in clip_annos]
    outputs = {"pred_logits": torch.randn(2, 10, 41), "pred_masks": torch.randn(2, 10, 2, 16, 16)}
    indices = VideoHungarianMatcher().memory_efficient_forward(outputs, targets)
    print("matched queries:", [src.tolist() for src, _ in indices])
