import random

import torch


def get_negative_samples(outside_word_idx, sampling_table, K):
    """Draw K negative words (with replacement) from the unigram^0.75 table, never the outside word."""
    neg_sample_word_indices = [None] * K
    for k in range(K):
        newidx = random.choice(sampling_table)
        while newidx == outside_word_idx:
            newidx = random.choice(sampling_table)
        neg_sample_word_indices[k] = newidx
    return neg_sample_word_indices


def neg_sampling_loss_and_gradient(center_word_vec, outside_word_idx, outside_vectors, sampling_table, K=10):
    # center_word_vec: (dim,) ; outside_vectors: (vocab, dim)
    neg_sample_word_indices = get_negative_samples(outside_word_idx, sampling_table, K)
    grad_outside_vecs = torch.zeros_like(outside_vectors)                 # (vocab, dim)

    u_o = outside_vectors[outside_word_idx]                                # (dim,)
    z = torch.sigmoid(u_o @ center_word_vec)                               # ()
    loss = -torch.log(z)
    grad_center_vec = (z - 1) * u_o                                        # (dim,)
    grad_outside_vecs[outside_word_idx] = (z - 1) * center_word_vec

    neg_ids = torch.tensor(neg_sample_word_indices)                        # (K,)
    u_k = outside_vectors[neg_ids]                                         # (K, dim)
    z_k = torch.sigmoid(-(u_k @ center_word_vec))                          # (K,)
    loss = loss - torch.log(z_k).sum()
    grad_center_vec = grad_center_vec + ((1 - z_k)[:, None] * u_k).sum(dim=0)
    grad_outside_vecs[neg_ids] += torch.outer(1 - z_k, center_word_vec)   # (K, dim) rows into (vocab, dim)
    return loss, grad_center_vec, grad_outside_vecs, neg_sample_word_indices


def skipgram(current_center_word, outside_words, word2ind, center_word_vectors, outside_vectors, sampling_table):
    loss = 0.0
    grad_center = torch.zeros_like(center_word_vectors)
    grad_outside = torch.zeros_like(outside_vectors)
    center_idx = word2ind[current_center_word]
    for word in outside_words:
        l, gc, go, _ = neg_sampling_loss_and_gradient(
            center_word_vectors[center_idx], word2ind[word], outside_vectors, sampling_table)
        loss += l
        grad_center[center_idx] += gc
        grad_outside += go
    return loss, grad_center, grad_outside


if __name__ == "__main__":
    random.seed(3)
    torch.manual_seed(3)
    word2ind = {w: i for i, w in enumerate(["a", "b", "c", "d", "e"])}
    center_vecs, outside_vecs = torch.randn(5, 3), torch.randn(5, 3)
    sampling_table = [0, 0, 0, 1, 1, 2, 3, 3, 4]
    random.seed(7)
    loss, grad_center, grad_outside = skipgram("c", ["a", "d"], word2ind, center_vecs, outside_vecs, sampling_table)
    random.seed(7)
    outside_param = outside_vecs.clone().requires_grad_(True)
    autograd_loss = 0.0
    for word in ["a", "d"]:
        negs = get_negative_samples(word2ind[word], sampling_table, 10)
        v_c = center_vecs[word2ind["c"]]
        autograd_loss = autograd_loss - torch.log(torch.sigmoid(outside_param[word2ind[word]] @ v_c))
        autograd_loss = autograd_loss - torch.log(torch.sigmoid(-(outside_param[torch.tensor(negs)] @ v_c))).sum()
    autograd_loss.backward()
    print("gradient of the outside vectors, row 0:", [round(v, 4) for v in grad_outside[0].tolist()])
    print("autograd gradient of that row:        ", [round(v, 4) for v in outside_param.grad[0].tolist()])
