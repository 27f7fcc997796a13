import torch


def vote_map(pixel_yx, offsets, scores, grid_hw, stride):
    # pixel_yx: [N, 2] integer pixel coordinates that voted
    centre = pixel_yx.float() + offsets  # [N, 2]
    cell = torch.div(centre, stride, rounding_mode="floor").long()  # [N, 2]
    cell[:, 0].clamp_(0, grid_hw[0] - 1)
    cell[:, 1].clamp_(0, grid_hw[1] - 1)
    votes = torch.zeros(grid_hw)  # [H, W]
    votes[cell[:, 0], cell[:, 1]] += scores  # accumulate every pixel's vote
    return votes


def detect_centres(votes, min_votes):
    # votes: [H, W]; keep local maxima with enough support
    pooled = torch.nn.functional.max_pool2d(votes[None, None], 3, stride=1, padding=1)[0, 0]
    keep = (votes == pooled) & (votes >= min_votes)
    return keep.nonzero()  # [K, 2]


if __name__ == "__main__":
    torch.manual_seed(0)
    # two objects; every foreground pixel predicts an offset to its object's centre
    centres = torch.tensor([[10.0, 12.0], [30.0, 40.0]])  # [2, 2]
    pixel_yx = torch.cat([(c + torch.randint(-6, 7, (40, 2))).long() for c in centres])  # [80, 2]
    owner = torch.arange(2).repeat_interleave(40)  # [80]
    offsets = centres[owner] - pixel_yx.float() + 0.5 * torch.randn(80, 2)  # [80, 2]
    scores = torch.rand(80) * 0.5 + 0.5  # [80]
    votes = vote_map(pixel_yx, offsets, scores, (16, 16), stride=4)
    print("total vote mass:", votes.sum().item(), "of", scores.sum().item())
    print("detected centres (cells):", detect_centres(votes, min_votes=5.0).tolist())
