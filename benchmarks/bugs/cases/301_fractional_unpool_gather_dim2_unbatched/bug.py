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
    return flat_x.gather(2, flat_idx).view_as(indices)


def main():
    torch.manual_seed(0)
    pool = nn.FractionalMaxPool2d(kernel_size=2, output_size=(3, 3), return_indices=True)
    image = torch.randn(4, 7, 7)                                      # unbatched (C, H, W)
    pooled, idx = pool(image)
    again = pooled_values(image, idx)
    print("max diff to pooled:", (again - pooled).abs().max().item())
    unpool = FractionalMaxUnpool()
    back = unpool(pooled, idx, image.shape)
    print("unpooled nonzeros:", int((back != 0).sum()))


if __name__ == "__main__":
    main()
