import torch


def box_iou(boxes1, boxes2):
    """
    Args:
        boxes1 (Tensor): (N, 4) boxes in (x1, y1, x2, y2)
        boxes2 (Tensor): (M, 4)
    Returns:
        Tensor: (N, M) pairwise IoU
    """
    area1 = (boxes1[:, 2] - boxes1[:, 0]) * (boxes1[:, 3] - boxes1[:, 1])
    area2 = (boxes2[:, 2] - boxes2[:, 0]) * (boxes2[:, 3] - boxes2[:, 1])
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area1[:, None] + area2 - inter)


def nms(boxes, scores, iou_threshold):
    """
    Returns:
        Tensor: int64 indices of the kept boxes, sorted in decreasing order of scores.
    """
    order = scores.argsort(descending=True)
    keep = []
    while order.numel() > 0:
        i = order[0]
        keep.append(i)
        if order.numel() == 1:
            break
        ious = box_iou(boxes[i].unsqueeze(0), boxes[order[1:]])[0]
        order = order[1:][ious <= iou_threshold]
    return torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long)


def batched_nms(boxes, scores, idxs, iou_threshold):
    """
    Same as `nms`, but boxes of different categories (idxs) never suppress each other.
    """
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes) * (max_coordinate + 1)
    return nms(boxes + offsets[:, None], scores, iou_threshold)


def fast_rcnn_inference_single_image(
    boxes, scores, image_shape, score_thresh, nms_thresh, topk_per_image
):
    """
    Single-image inference. Return bounding-box detection results by thresholding
    on scores and applying non-maximum suppression (NMS).

    Args:
        boxes (Tensor): (R, K * 4) class-specific boxes, or (R, 4) class-agnostic.
        scores (Tensor): (R, K + 1) class scores, the last column is background.
        image_shape (tuple): (height, width)
        score_thresh (float): Only return detections with a confidence score exceeding this
            threshold.
        nms_thresh (float): The threshold to use for box non-maximum suppression. Value in [0, 1].
        topk_per_image (int): The number of top scoring detections to return. Set < 0 to return
            all detections.

    Returns:
        pred_boxes (Tensor): (D, 4)
        pred_scores (Tensor): (D,)
        pred_classes (Tensor): (D,)
        kept_indices (Tensor): (D,) index in [0, R) of the proposal each detection came from
    """
    scores = scores[:, :-1]
    num_bbox_reg_classes = boxes.shape[1] // 4
    boxes = boxes.reshape(-1, 4)
    h, w = image_shape
    boxes[:, 0::2] = boxes[:, 0::2].clamp(min=0, max=w)
    boxes[:, 1::2] = boxes[:, 1::2].clamp(min=0, max=h)
    boxes = boxes.view(-1, num_bbox_reg_classes, 4)

    # Filter results based on detection scores
    filter_mask = scores > score_thresh
    # First column contains indices of the R predictions; second column contains class indices
    filter_inds = filter_mask.nonzero()
    if num_bbox_reg_classes == 1:
        boxes = boxes[filter_inds[:, 0], 0]
    else:
        boxes = boxes[filter_mask]
    scores = scores[filter_mask]

    # Apply per-class NMS
    keep = batched_nms(boxes, scores, filter_inds[:, 1], nms_thresh)
    keep = keep[:topk_per_image]
    boxes, scores, filter_inds = boxes[keep], scores[keep], filter_inds[keep]

    return boxes, scores, filter_inds[:, 1], filter_inds[:, 0]


def fast_rcnn_inference(boxes, scores, image_shapes, score_thresh, nms_thresh, topk_per_image):
    """
    Call `fast_rcnn_inference_single_image` for all images.

    Args:
        boxes (list[Tensor]): element i has shape (Ri, K * 4)
        scores (list[Tensor]): element i has shape (Ri, K + 1)
        image_shapes (list[tuple]): (height, width) of every image
    """
    return [
        fast_rcnn_inference_single_image(
            boxes_per_image, scores_per_image, image_shape, score_thresh, nms_thresh, topk_per_image
        )
        for scores_per_image, boxes_per_image, image_shape in zip(scores, boxes, image_shapes)
    ]


def make_proposals(num_rois, num_classes, image_size, generator):
    xy = torch.rand(num_rois, 1, 2, generator=generator) * (image_size - 40)
    wh = 10 + torch.rand(num_rois, num_classes, 2, generator=generator) * 30
    boxes = torch.cat([xy.expand(-1, num_classes, -1), xy + wh], dim=-1).reshape(num_rois, -1)
    logits = torch.randn(num_rois, num_classes + 1, generator=generator) * 2
    return boxes, logits.softmax(dim=-1)


if __name__ == "__main__":
    cfg = {"SCORE_THRESH_TEST": 0.3, "NMS_THRESH_TEST": 0.5, "DETECTIONS_PER_IMAGE": -1}
    g = torch.Generator().manual_seed(0)
    num_classes, image_size = 3, 128
    boxes, scores = [], []
    for _ in range(2):
        b, s = make_proposals(20, num_classes, image_size, g)
        boxes.append(b)
        scores.append(s)
    results = fast_rcnn_inference(
        [b.clone() for b in boxes], scores, [(image_size, image_size)] * 2,
        cfg["SCORE_THRESH_TEST"], cfg["NMS_THRESH_TEST"], cfg["DETECTIONS_PER_IMAGE"],
    )
    # "return all detections" must match an explicit, large enough limit
    unlimited = fast_rcnn_inference(
        [b.clone() for b in boxes], scores, [(image_size, image_size)] * 2,
        cfg["SCORE_THRESH_TEST"], cfg["NMS_THRESH_TEST"], 1000,
    )
    for i in range(2):
        print(f"image {i}: DETECTIONS_PER_IMAGE=-1 -> {len(results[i][1])} detections, "
              f"limit 1000 -> {len(unlimited[i][1])} detections")
