import torch
import torch.nn as nn


class FractionalMaxUnpool(nn.Module):
    """Scatters pooled values back to the argmax positions recorded by a fractional max pool."""

    def forward(self, grad_out, indices, input_size):
        # grad_out: (..., C, oH, oW)   indices: (..., C, oH, oW) flat positions into H * W
        # input_size: (..., C, H, W)
        flat_idx = indices.reshape(indices.shape[:-2] + (-1,))        # (..., C, oH * oW)
        flat_grad = grad_out.reshape(grad_out.shape[:-2] + (-1,))     # (..., C, oH * oW)
        out = grad_out.new_zeros(input_size[:-2] + (input_size[-2] * input_size[-1],))
        out.scatter_add_(flat_idx.dim() - 1, flat_idx, flat_grad)
        return out.view(input_size)


def pooled_values(x, indices):
    # x: (..., C, H, W)   indices: (..., C, oH, oW)
    flat_x = x.reshape(x.shape[:-2] + (-1,))                          # (..., C, H * W)
    flat_idx = indices.reshape(indices.shape[:-2] + (-1,))            # (..., C, oH * oW)
    return flat_x.gather(-1, flat_idx).view_as(indices)


def main():
    torch.manual_seed(0)
    pool = nn.FractionalMaxPool2d(kernel_size=2, output_size=(3, 3), return_indices=True)
    image = torch.randn(4, 7, 7)                                      # unbatched (C, H, W)
    pooled, idx = pool(image)
    again = pooled_values(image, idx)
    C, oH, oW = idx.shape
    W = image.shape[-1]
    for c in range(C):
        for i in range(oH):
            for j in range(oW):
                p = int(idx[c, i, j])
                assert again[c, i, j] == image[c, p // W, p % W] == pooled[c, i, j]
    batched = image.unsqueeze(0)
    b_pooled, b_idx = pool(batched)
    assert torch.equal(pooled_values(batched, b_idx), b_pooled)
    unpool = FractionalMaxUnpool()
    back = unpool(pooled, idx, image.shape)
    assert torch.allclose(pooled_values(back, idx), pooled)
    print("ok")


if __name__ == "__main__":
    main()
