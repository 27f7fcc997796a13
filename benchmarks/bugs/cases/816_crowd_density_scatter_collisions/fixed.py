import torch


def points_to_density(points, valid, height, width, stride):
    """Rasterize annotated head positions into a count map at the model's output stride.

    Args:
        points (`torch.FloatTensor` of shape `(batch_size, max_people, 2)`):
            (x, y) pixel coordinates of each annotated head, padded.
        valid (`torch.BoolTensor` of shape `(batch_size, max_people)`):
            which entries of `points` are real annotations.
        height (`int`), width (`int`): input image size in pixels.
        stride (`int`): downsampling factor of the density head.

    Returns:
        `torch.FloatTensor` of shape `(batch_size, height // stride, width // stride)`:
            people per cell; summing a map gives the image's head count.
    """
    h, w = height // stride, width // stride
    cell_x = (points[..., 0] // stride).long().clamp(0, w - 1)
    cell_y = (points[..., 1] // stride).long().clamp(0, h - 1)
    flat = cell_y * w + cell_x
    density = torch.zeros(points.shape[0], h * w)
    density.scatter_add_(1, flat, valid.float())
    return density.view(-1, h, w)


def count_loss(pred_density, gt_density):
    """L1 between predicted and annotated counts per image.

    Args:
        pred_density, gt_density (`torch.FloatTensor` of shape `(batch_size, h, w)`)
    """
    return (pred_density.sum((1, 2)) - gt_density.sum((1, 2))).abs().mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    points = torch.rand(2, 30, 2) * torch.tensor([64.0, 48.0])
    valid = torch.arange(30).expand(2, 30) < torch.tensor([[30], [21]])
    gt = points_to_density(points, valid, height=48, width=64, stride=8)
    for b in range(2):
        ref = [[0.0] * 8 for _ in range(6)]
        for p in range(30):
            if valid[b, p]:
                x = min(int(points[b, p, 0].item() // 8), 7)
                y = min(int(points[b, p, 1].item() // 8), 5)
                ref[y][x] += 1.0
        assert torch.equal(gt[b], torch.tensor(ref))
    assert gt.sum((1, 2)).tolist() == [30.0, 21.0]
    print("ok")
