import torch


def multibox_prior(fmap_h, fmap_w, sizes, ratios):
    # Generate anchor boxes with different shapes centered on each pixel
    num_sizes, num_ratios = len(sizes), len(ratios)
    boxes_per_pixel = num_sizes + num_ratios - 1
    size_tensor = torch.tensor(sizes)
    ratio_tensor = torch.tensor(ratios)
    # Offsets are required to move the anchor to the center of a pixel
    steps_h, steps_w = 1.0 / fmap_h, 1.0 / fmap_w
    center_h = (torch.arange(fmap_h) + 0.5) * steps_h
    center_w = (torch.arange(fmap_w) + 0.5) * steps_w
    shift_y, shift_x = torch.meshgrid(center_h, center_w, indexing="ij")
    shift_y, shift_x = shift_y.reshape(-1), shift_x.reshape(-1)
    # cat (various sizes, first ratio) and (first size, various ratios)
    w = torch.cat((size_tensor * torch.sqrt(ratio_tensor[0]),
                   sizes[0] * torch.sqrt(ratio_tensor[1:])))
    h = torch.cat((size_tensor / torch.sqrt(ratio_tensor[0]),
                   sizes[0] / torch.sqrt(ratio_tensor[1:])))
    # Divide by 2 to get half height and half width
    anchor_manipulations = torch.stack((-w, -h, w, h)).T.repeat(fmap_h * fmap_w, 1) / 2
    # Each center point will have boxes_per_pixel anchor boxes
    out_grid = torch.stack([shift_x, shift_y, shift_x, shift_y],
                           dim=1).repeat_interleave(boxes_per_pixel, dim=0)
    return out_grid + anchor_manipulations


def box_iou(boxes1, boxes2):
    # Compute pairwise IoU across two lists of anchor or bounding boxes
    def box_area(boxes):
        return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    areas1 = box_area(boxes1)
    areas2 = box_area(boxes2)
    # Shape of inter_upperlefts, inter_lowerrights, inters: (no. of boxes1, no. of boxes2, 2)
    inter_upperlefts = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    inter_lowerrights = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    inters = (inter_lowerrights - inter_upperlefts).clamp(min=0)
    # Shape of inter_areas and union_areas: (no. of boxes1, no. of boxes2)
    inter_areas = inters[:, :, 0] * inters[:, :, 1]
    union_areas = areas1[:, None] + areas2 - inter_areas
    return inter_areas / union_areas


def assign_anchor_to_bbox(ground_truth, anchors, iou_threshold=0.5):
    # Assign closest ground-truth bounding boxes to anchor boxes
    num_anchors, num_gt_boxes = anchors.shape[0], ground_truth.shape[0]
    # Element x_ij in the i-th row and j-th column is the IoU of the anchor
    # box i and the ground-truth bounding box j
    jaccard = box_iou(anchors, ground_truth)
    # Initialize the tensor to hold the assigned ground-truth bounding box for each anchor
    anchors_bbox_map = torch.full((num_anchors,), -1, dtype=torch.long)
    # Assign ground-truth bounding boxes according to the threshold
    max_ious, indices = torch.max(jaccard, dim=1)
    anc_i = torch.nonzero(max_ious >= iou_threshold).reshape(-1)
    box_j = indices[max_ious >= iou_threshold]
    anchors_bbox_map[anc_i] = box_j
    # Find the largest iou for each bbox
    anc_i = torch.argmax(jaccard, dim=0)
    box_j = torch.arange(num_gt_boxes)
    anchors_bbox_map[anc_i] = box_j
    return anchors_bbox_map


def multibox_target(anchors, labels):
    # Label anchor boxes using ground-truth bounding boxes; labels: (batch, no. of gt, 5)
    batch_size = labels.shape[0]
    batch_class_labels, batch_maps = [], []
    for i in range(batch_size):
        label = labels[i, :, :]
        anchors_bbox_map = assign_anchor_to_bbox(label[:, 1:], anchors)
        # Initialize class labels and assigned bounding box coordinates with zeros
        class_labels = torch.zeros(anchors.shape[0], dtype=torch.long)
        indices_true = torch.nonzero(anchors_bbox_map >= 0).reshape(-1)
        bb_idx = anchors_bbox_map[indices_true]
        class_labels[indices_true] = label[bb_idx, 0].long() + 1
        batch_class_labels.append(class_labels)
        batch_maps.append(anchors_bbox_map)
    return torch.stack(batch_maps), torch.stack(batch_class_labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    anchors = multibox_prior(4, 4, sizes=[0.3, 0.15], ratios=[1.0, 2.0])
    # two small, heavily overlapping objects (a cat sitting in front of a dog)
    ground_truth = torch.tensor([[[0, 0.30, 0.30, 0.43, 0.46],
                                  [1, 0.32, 0.31, 0.47, 0.46]]])
    bbox_maps, class_labels = multibox_target(anchors, ground_truth)
    for j in range(ground_truth.shape[1]):
        assigned = torch.nonzero(bbox_maps[0] == j).reshape(-1).tolist()
        print(f"gt box {j}: anchors {assigned}")
    print("positive class labels:", sorted(set(class_labels[0][class_labels[0] > 0].tolist())))
