"""Template/channel overlap matrix used by the spike-sorting main loop (port of getMeUtU)."""
import torch


def main_channels(templates):
    # templates: (Nfilt, Nchan, nt0)
    amplitude = templates.abs().amax(dim=2)  # (Nfilt, Nchan)
    return amplitude.argmax(dim=1, keepdim=True)  # (Nfilt, 1)


def nearest_channels(ycoords, n_chan_near):
    # ycoords: (Nchan,) probe site depths
    dist = (ycoords[:, None] - ycoords[None, :]).abs()  # (Nchan, Nchan)
    return dist.argsort(dim=0)[:n_chan_near]  # (NchanNear, Nchan), column k = neighbours of k


def get_me_utu(iU, iC, n_chan):
    # iU: (Nfilt, 1) main channel of every template
    # iC: (NchanNear, Nchan) nearest channels of every channel
    n_filt = iU.shape[0]
    # U is kept Fortran-style as its transpose: UT[j, k] == U[k, j]
    UT = torch.zeros(n_filt, n_chan)  # (Nfilt, Nchan)
    # flat index of (channel, template) = channel + Nchan * template
    ix = iC[:, iU] + torch.arange(0, n_chan * n_filt, n_chan)  # (NchanNear, Nfilt)
    UT.view(-1)[ix] = 1.0
    U = UT.t()  # (Nchan, Nfilt)
    # 1 if the two templates share at least one channel
    return (U.t() @ U > 0).int()  # (Nfilt, Nfilt)


if __name__ == "__main__":
    torch.manual_seed(0)
    n_chan, n_filt, nt0, n_chan_near = 32, 6, 61, 4
    ycoords = torch.arange(n_chan, dtype=torch.float32) * 20.0
    templates = torch.randn(n_filt, n_chan, nt0) * 0.1
    peaks = torch.tensor([2, 5, 12, 13, 25, 30])
    templates[torch.arange(n_filt), peaks, nt0 // 2] = -5.0

    iU = main_channels(templates)
    iC = nearest_channels(ycoords, n_chan_near)
    UtU = get_me_utu(iU, iC, n_chan)
    print("UtU:\n", UtU)
    print("template pairs sharing a channel:", int(UtU.sum()))
