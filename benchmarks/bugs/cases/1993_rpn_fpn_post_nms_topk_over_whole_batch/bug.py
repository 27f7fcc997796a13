import torch


class BoxList:
    """Boxes of one image.

    Arguments:
        bbox (tensor): (N, 4) boxes in xyxy
        image_size (tuple): (width, height)
    """

    def __init__(self, bbox, image_size):
        self.bbox = bbox
        self.size = image_size
        self.extra_fields = {}

    def add_field(self, field, field_data):
        self.extra_fields[field] = field_data

    def get_field(self, field):
        return self.extra_fields[field]

    def __len__(self):
        return self.bbox.shape[0]

    def __getitem__(self, item):
        box = BoxList(self.bbox[item], self.size)
        for k, v in self.extra_fields.items():
            box.add_field(k, v[item])
        return box

    def clip_to_image(self):
        w, h = self.size
        self.bbox[:, 0].clamp_(min=0, max=w - 1)
        self.bbox[:, 1].clamp_(min=0, max=h - 1)
        self.bbox[:, 2].clamp_(min=0, max=w - 1)
        self.bbox[:, 3].clamp_(min=0, max=h - 1)
        return self


def cat_boxlist(bboxes):
    out = BoxList(torch.cat([b.bbox for b in bboxes], dim=0), bboxes[0].size)
    for field in bboxes[0].extra_fields:
        out.add_field(field, torch.cat([b.get_field(field) for b in bboxes], dim=0))
    return out


def decode(rel_codes, boxes):
    """Applies (dx, dy, dw, dh) deltas rel_codes (K, 4) to reference boxes (K, 4)."""
    widths = boxes[:, 2] - boxes[:, 0] + 1
    heights = boxes[:, 3] - boxes[:, 1] + 1
    ctr_x = boxes[:, 0] + 0.5 * widths
    ctr_y = boxes[:, 1] + 0.5 * heights
    dx, dy, dw, dh = rel_codes.unbind(dim=1)
    pred_ctr_x = dx * widths + ctr_x
    pred_ctr_y = dy * heights + ctr_y
    pred_w = torch.exp(dw.clamp(max=4.0)) * widths
    pred_h = torch.exp(dh.clamp(max=4.0)) * heights
    return torch.stack([pred_ctr_x - 0.5 * pred_w, pred_ctr_y - 0.5 * pred_h,
                        pred_ctr_x + 0.5 * pred_w - 1, pred_ctr_y + 0.5 * pred_h - 1], dim=1)


class RPNPostProcessor(torch.nn.Module):
    """Performs post-processing on the outputs of the RPN boxes, before feeding the
    proposals to the heads."""

    def __init__(self, pre_nms_top_n, fpn_post_nms_top_n):
        super().__init__()
        self.pre_nms_top_n = pre_nms_top_n
        self.fpn_post_nms_top_n = fpn_post_nms_top_n

    def forward_for_single_feature_map(self, anchors, objectness, box_regression):
        """
        Arguments:
            anchors: list[BoxList], one per image, each with A * H * W boxes
            objectness: tensor of size N, A, H, W
            box_regression: tensor of size N, A * 4, H, W
        Returns:
            list[BoxList], one per image, with at most pre_nms_top_n proposals
        """
        N, A, H, W = objectness.shape
        objectness = objectness.permute(0, 2, 3, 1).reshape(N, -1).sigmoid()
        box_regression = box_regression.view(N, A, 4, H, W).permute(0, 3, 4, 1, 2).reshape(N, -1, 4)

        num_anchors = A * H * W
        pre_nms_top_n = min(self.pre_nms_top_n, num_anchors)
        objectness, topk_idx = objectness.topk(pre_nms_top_n, dim=1, sorted=True)

        batch_idx = torch.arange(N)[:, None]
        box_regression = box_regression[batch_idx, topk_idx]
        concat_anchors = torch.cat([a.bbox for a in anchors], dim=0)
        concat_anchors = concat_anchors.reshape(N, -1, 4)[batch_idx, topk_idx]

        proposals = decode(box_regression.view(-1, 4), concat_anchors.view(-1, 4)).view(N, -1, 4)

        result = []
        for proposal, score, anchor in zip(proposals, objectness, anchors):
            boxlist = BoxList(proposal, anchor.size)
            boxlist.add_field("objectness", score)
            result.append(boxlist.clip_to_image())
        return result

    def forward(self, anchors, objectness, box_regression):
        """
        Arguments:
            anchors: list[list[BoxList]], per image then per level
            objectness: list[tensor], per level, each N, A, H, W
            box_regression: list[tensor], per level, each N, A * 4, H, W
        """
        sampled_boxes = []
        anchors = list(zip(*anchors))
        for a, o, b in zip(anchors, objectness, box_regression):
            sampled_boxes.append(self.forward_for_single_feature_map(a, o, b))
        boxlists = list(zip(*sampled_boxes))
        boxlists = [cat_boxlist(boxlist) for boxlist in boxlists]
        return self.select_over_all_levels(boxlists)

    def select_over_all_levels(self, boxlists):
        """
        Arguments:
            boxlists: list[BoxList], one per image, with the proposals of all levels
        Returns:
            list[BoxList], one per image, with at most fpn_post_nms_top_n proposals
        """
        num_images = len(boxlists)
        objectness = torch.cat([boxlist.get_field("objectness") for boxlist in boxlists], dim=0)
        box_sizes = [len(boxlist) for boxlist in boxlists]
        post_nms_top_n = min(self.fpn_post_nms_top_n, len(objectness))
        _, inds_sorted = torch.topk(objectness, post_nms_top_n, dim=0, sorted=True)
        inds_mask = torch.zeros_like(objectness, dtype=torch.bool)
        inds_mask[inds_sorted] = True
        inds_mask = inds_mask.split(box_sizes)
        for i in range(num_images):
            boxlists[i] = boxlists[i][inds_mask[i]]
        return boxlists


def make_anchors(image_size, H, W, stride, sizes):
    ys, xs = torch.meshgrid(torch.arange(H) * stride, torch.arange(W) * stride, indexing="ij")
    boxes = []
    for s in sizes:
        boxes.append(torch.stack([xs - s / 2, ys - s / 2, xs + s / 2, ys + s / 2], dim=-1))
    boxes = torch.stack(boxes, dim=2).reshape(-1, 4).float()
    return BoxList(boxes, image_size)


if __name__ == "__main__":
    torch.manual_seed(0)
    image_size = (128, 96)
    levels = [(12, 16, 8), (6, 8, 16)]
    sizes = (16.0, 32.0, 64.0)
    anchors = [[make_anchors(image_size, H, W, s, sizes) for (H, W, s) in levels] for _ in range(2)]
    objectness, box_regression = [], []
    for H, W, _ in levels:
        logits = torch.randn(2, 3, H, W)
        logits[0] += 3.0            # a crowded street scene: many confident anchors
        objectness.append(logits)
        box_regression.append(0.1 * torch.randn(2, 12, H, W))

    post = RPNPostProcessor(pre_nms_top_n=200, fpn_post_nms_top_n=100)
    post.train()
    proposals = post(anchors, objectness, box_regression)
    print("proposals per image:", [len(p) for p in proposals])
