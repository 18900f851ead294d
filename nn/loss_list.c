/* Listwise softmax cross-entropy: a loss for scores that only rank the rows
 * of one group (the candidates of one decision) against each other, so
 * what is learned is the order within a group, not each row's level. */
#include <math.h>

#include "nn/nn.h"

/* One list [a, b): loss -sum p log q, gradient (q - p) * scale. */
static double list_term(const float *y, const float *t, int a, int b, float temp, float scale,
                        float *dy)
{
    double ymax = y[a], tmax = t[a];
    for (int i = a + 1; i < b; i++) {
        ymax = y[i] > ymax ? y[i] : ymax;
        tmax = t[i] > tmax ? t[i] : tmax;
    }
    double zy = 0, zt = 0;
    for (int i = a; i < b; i++) {
        zy += exp(y[i] - ymax);
        zt += exp((t[i] - tmax) / temp);
    }
    double loss = 0, lzy = log(zy);
    for (int i = a; i < b; i++) {
        double p = exp((t[i] - tmax) / temp) / zt, logq = y[i] - ymax - lzy;
        loss -= p * logq;
        if (dy)
            dy[i] = (float)((exp(logq) - p) * scale);
    }
    return loss;
}

double nn_listwise_loss(const float *y, const float *target, const int32_t *group, int n,
                        float target_temp, float *dy)
{
    int lists = 0;
    for (int i = 0; i < n; i++)
        lists += i == 0 || group[i] != group[i - 1];
    if (n <= 0 || !(target_temp > 0))
        return 0;
    float scale = 1.0f / (float)lists;
    double sum = 0;
    for (int a = 0; a < n;) {
        int b = a + 1;
        while (b < n && group[b] == group[a])
            b++;
        sum += list_term(y, target, a, b, target_temp, scale, dy);
        a = b;
    }
    return sum / lists;
}
