import torch


def project_to_depth_prompt(points_cam, K, height, width):
    # points_cam: (N, 3) lidar points already in the camera frame
    # K:          (3, 3) camera intrinsics
    # returns:    (1, H, W) sparse metric depth, 0 where no point lands
    pts = points_cam[points_cam[:, 2] > 0]                   # (M, 3)
    uvz = pts @ K.T                                          # (M, 3)
    z = uvz[:, 2]                                            # (M,)
    uv = (uvz[:, :2] / z[:, None]).long()                    # (M, 2) pixel (u, v)
    inside = (uv[:, 0] >= 0) & (uv[:, 0] < width) & (uv[:, 1] >= 0) & (uv[:, 1] < height)
    uv, z = uv[inside], z[inside]                            # (P, 2), (P,)
    flat = uv[:, 1] * width + uv[:, 0]                       # (P,) index into H*W
    depth = torch.zeros(height * width)                      # (H*W,)
    depth.scatter_(0, flat, z)
    return depth.view(1, height, width)


def prompt_depth_loss(pred, prompt):
    # pred, prompt: (1, H, W); supervise only pixels that received a lidar return
    valid = prompt > 0
    return (pred[valid] - prompt[valid]).abs().mean()


if __name__ == "__main__":
    K = torch.tensor([[40.0, 0.0, 16.0],
                      [0.0, 40.0, 12.0],
                      [0.0, 0.0, 1.0]])
    # a pole 2 m away in front of a wall 10 m away: both hit the same pixel ray
    points = torch.tensor([[0.125, 0.0625, 2.0],
                           [-0.5, 0.25, 4.0],
                           [0.625, 0.3125, 10.0],
                           [1.5, -0.75, 6.0]])
    prompt = project_to_depth_prompt(points, K, height=24, width=32)
    v, u = 13, 18
    print("depth at the pole pixel:", prompt[0, v, u].item())
    print("loss vs a prediction that sees the pole:", prompt_depth_loss(torch.full((1, 24, 32), 2.0), prompt).item())
