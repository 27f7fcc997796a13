import torch
import torch.nn as nn


def cxcywh_to_xyxy(boxes):
    cx, cy, w, h = boxes.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)


class DetrPostProcess(nn.Module):
    def __init__(self, num_classes, test_cfg):
        super().__init__()
        self.num_classes = num_classes
        self.test_cfg = test_cfg

    def forward(self, cls_scores, bbox_preds, img_shape):
        max_per_img = self.test_cfg.get("max_per_img", cls_scores.size(1))
        batch_size = cls_scores.size(0)
        batch_index_offset = torch.arange(batch_size, device=cls_scores.device) * max_per_img
        batch_index_offset = batch_index_offset.unsqueeze(1).expand(batch_size, max_per_img)

        scores, indexes = cls_scores.sigmoid().flatten(1).topk(max_per_img, dim=1)
        det_labels = indexes % self.num_classes
        bbox_index = indexes // self.num_classes
        bbox_index = (bbox_index + batch_index_offset).view(-1)
        boxes = bbox_preds.view(-1, 4)[bbox_index]
        boxes = boxes.view(batch_size, -1, 4)

        det_bboxes = cxcywh_to_xyxy(boxes).clamp(min=0.0, max=1.0)
        h, w = img_shape
        det_bboxes = det_bboxes * det_bboxes.new_tensor([w, h, w, h])
        return torch.cat([det_bboxes, scores.unsqueeze(-1)], dim=-1), det_labels


def run_decoder(model_cfg, batch_size, generator):
    logits = torch.randn(batch_size, model_cfg["num_queries"], model_cfg["num_classes"], generator=generator)
    boxes = torch.rand(batch_size, model_cfg["num_queries"], 4, generator=generator) * 0.5 + 0.25
    return logits, boxes


if __name__ == "__main__":
    model_cfg = {"num_queries": 300, "num_classes": 80}
    test_cfg = {"max_per_img": 100}
    logits, boxes = run_decoder(model_cfg, batch_size=2, generator=torch.Generator().manual_seed(0))
    post = DetrPostProcess(model_cfg["num_classes"], test_cfg)
    dets, labels = post(logits, boxes, img_shape=(480, 640))

    # what the single-image path returns for the second image
    single, _ = post(logits[1:], boxes[1:], img_shape=(480, 640))
    print("image 1 boxes equal the single-image result:", torch.allclose(dets[1], single[0]))
    print("max |diff| for image 1:", (dets[1, :, :4] - single[0, :, :4]).abs().max().item())
