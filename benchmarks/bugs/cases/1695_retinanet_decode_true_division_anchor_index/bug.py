import torch
import torch.nn as nn


def decode(all_cls_head, all_box_head, stride=1, threshold=0.05, top_n=50):
    'Box Decoding and Filtering'

    num_boxes = 4
    num_anchors = all_box_head.size(1) // num_boxes
    num_classes = all_cls_head.size(1) // num_anchors
    height, width = all_cls_head.size()[-2:]

    batch_size = all_cls_head.size()[0]
    out_scores = torch.zeros((batch_size, top_n))
    out_boxes = torch.zeros((batch_size, top_n, num_boxes))
    out_classes = torch.zeros((batch_size, top_n))

    # Per item in batch
    for batch in range(batch_size):
        cls_head = all_cls_head[batch, :, :, :].contiguous().view(-1)
        box_head = all_box_head[batch, :, :, :].contiguous().view(-1, num_boxes)

        # Keep scores over threshold
        keep = (cls_head >= threshold).nonzero().view(-1)
        if keep.nelement() == 0:
            continue

        # Gather top elements
        scores = torch.index_select(cls_head, 0, keep)
        scores, indices = torch.topk(scores, min(top_n, keep.size()[0]), dim=0)
        indices = torch.index_select(keep, 0, indices).view(-1)
        classes = (indices / width / height) % num_classes
        classes = classes.type(all_cls_head.type())

        # Infer kept bboxes
        x = indices % width
        y = (indices / width) % height
        a = indices / num_classes / height / width
        box_head = box_head.view(num_anchors, num_boxes, height, width)
        boxes = box_head[a, :, y, x]

        out_scores[batch, :scores.size()[0]] = scores
        out_boxes[batch, :boxes.size()[0], :] = boxes * stride
        out_classes[batch, :classes.size()[0]] = classes

    return out_scores, out_boxes, out_classes


if __name__ == "__main__":
    torch.manual_seed(0)
    num_anchors, num_classes = 9, 4
    cls_conv = nn.Conv2d(64, num_anchors * num_classes, 3, padding=1)
    box_conv = nn.Conv2d(64, num_anchors * 4, 3, padding=1)
    features = torch.randn(2, 64, 6, 8)
    with torch.no_grad():
        cls_head = cls_conv(features).sigmoid()
        box_head = box_conv(features)
    scores, boxes, classes = decode(cls_head, box_head, stride=8, threshold=0.6, top_n=20)

    for b in range(2):
        flat = cls_head[b].flatten()
        for k in range(20):
            if scores[b, k] == 0:
                continue
            i = (flat == scores[b, k]).nonzero()[0, 0].item()
            x, y = i % 8, (i // 8) % 6
            c, a = (i // 8 // 6) % num_classes, i // num_classes // 6 // 8
            assert classes[b, k].item() == c
            assert torch.allclose(boxes[b, k], box_head[b, a * 4:(a + 1) * 4, y, x] * 8)
    print("kept detections:", int((scores > 0).sum()))
    print("ok")
