// iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy 3.0: src/net.hadess.SensorProxy.xml)
// described for sd-bus. Property values live in this struct and sd-bus reads them by offset.
#include "imu_sensor_proxy.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-bus.h>

#define PROXY_NAME "net.hadess.SensorProxy"
#define PROXY_PATH "/net/hadess/SensorProxy"
#define PROXY_INTERFACE "net.hadess.SensorProxy"
#define COMPASS_PATH "/net/hadess/SensorProxy/Compass"
#define COMPASS_INTERFACE "net.hadess.SensorProxy.Compass"

static const char *orientation_names[] = {"undefined", "normal", "bottom-up", "left-up", "right-up"};

struct imu_sensor_proxy {
    sd_bus *bus;
    sd_bus_slot *proxy_slot;
    sd_bus_slot *compass_slot;
    sd_bus_slot *owner_slot;
    void *context;
    imu_sp_claim_fn on_claim;
    // Properties (sd-bus booleans are int).
    int has_accelerometer;
    const char *accelerometer_orientation;
    int has_ambient_light;
    const char *light_level_unit;
    double light_level;
    int has_proximity;
    int proximity_near;
    int has_compass;
    double compass_heading;
};

static int claim(sd_bus_message *m, void *userdata, int sensor, int on) {
    imu_sensor_proxy *sp = userdata;
    const char *sender = sd_bus_message_get_sender(m);
    if (sender) sp->on_claim(sp->context, sensor, on, sender);
    return sd_bus_reply_method_return(m, "");
}

static int claim_accelerometer(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_ACCELEROMETER, 1); }
static int release_accelerometer(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_ACCELEROMETER, 0); }
static int claim_light(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_LIGHT, 1); }
static int release_light(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_LIGHT, 0); }
static int claim_proximity(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_PROXIMITY, 1); }
static int release_proximity(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_PROXIMITY, 0); }
static int claim_compass(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_COMPASS, 1); }
static int release_compass(sd_bus_message *m, void *u, sd_bus_error *e) { (void)e; return claim(m, u, IMU_SP_COMPASS, 0); }

#define CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE

static const sd_bus_vtable proxy_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasAccelerometer", "b", NULL, offsetof(imu_sensor_proxy, has_accelerometer), CHANGES),
    SD_BUS_PROPERTY("AccelerometerOrientation", "s", NULL, offsetof(imu_sensor_proxy, accelerometer_orientation), CHANGES),
    SD_BUS_PROPERTY("HasAmbientLight", "b", NULL, offsetof(imu_sensor_proxy, has_ambient_light), CHANGES),
    SD_BUS_PROPERTY("LightLevelUnit", "s", NULL, offsetof(imu_sensor_proxy, light_level_unit), CHANGES),
    SD_BUS_PROPERTY("LightLevel", "d", NULL, offsetof(imu_sensor_proxy, light_level), CHANGES),
    SD_BUS_PROPERTY("HasProximity", "b", NULL, offsetof(imu_sensor_proxy, has_proximity), CHANGES),
    SD_BUS_PROPERTY("ProximityNear", "b", NULL, offsetof(imu_sensor_proxy, proximity_near), CHANGES),
    SD_BUS_METHOD("ClaimAccelerometer", "", "", claim_accelerometer, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseAccelerometer", "", "", release_accelerometer, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ClaimLight", "", "", claim_light, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseLight", "", "", release_light, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ClaimProximity", "", "", claim_proximity, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseProximity", "", "", release_proximity, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable compass_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("HasCompass", "b", NULL, offsetof(imu_sensor_proxy, has_compass), CHANGES),
    SD_BUS_PROPERTY("CompassHeading", "d", NULL, offsetof(imu_sensor_proxy, compass_heading), CHANGES),
    SD_BUS_METHOD("ClaimCompass", "", "", claim_compass, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("ReleaseCompass", "", "", release_compass, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END,
};

// NameOwnerChanged(name, old_owner, new_owner): a unique name with no new owner has left.
static int owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *e) {
    (void)e;
    imu_sensor_proxy *sp = userdata;
    const char *name, *old_owner, *new_owner;
    if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0) return 0;
    if (name[0] == ':' && new_owner[0] == '\0') sp->on_claim(sp->context, IMU_SP_ALL, 0, name);
    return 0;
}

int imu_sp_open(imu_sensor_proxy **out, int system, int has_accelerometer, int has_compass,
                void *context, imu_sp_claim_fn on_claim, const char **step) {
    imu_sensor_proxy *sp = calloc(1, sizeof *sp);
    if (!sp) return -ENOMEM;
    sp->context = context;
    sp->on_claim = on_claim;
    sp->has_accelerometer = has_accelerometer;
    sp->accelerometer_orientation = orientation_names[IMU_SP_UNDEFINED];
    sp->light_level_unit = "lux";
    sp->has_compass = has_compass;
    sp->compass_heading = -1.0;
    int r;
    *step = system ? "connect to the system bus" : "connect to the session bus";
    r = system ? sd_bus_open_system(&sp->bus) : sd_bus_open_user(&sp->bus);
    if (r < 0) goto fail;
    *step = "publish " PROXY_PATH;
    r = sd_bus_add_object_vtable(sp->bus, &sp->proxy_slot, PROXY_PATH, PROXY_INTERFACE, proxy_vtable, sp);
    if (r < 0) goto fail;
    *step = "publish " COMPASS_PATH;
    r = sd_bus_add_object_vtable(sp->bus, &sp->compass_slot, COMPASS_PATH, COMPASS_INTERFACE, compass_vtable, sp);
    if (r < 0) goto fail;
    *step = "watch for clients leaving the bus";
    r = sd_bus_match_signal(sp->bus, &sp->owner_slot, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus", "NameOwnerChanged", owner_changed, sp);
    if (r < 0) goto fail;
    *step = "own the name " PROXY_NAME;
    r = sd_bus_request_name(sp->bus, PROXY_NAME, 0);
    if (r < 0) goto fail;
    *out = sp;
    return 0;
fail:
    imu_sp_close(sp);
    return r;
}

int imu_sp_process(imu_sensor_proxy *sp) {
    int r;
    while ((r = sd_bus_process(sp->bus, NULL)) > 0) {}
    return r;
}

int imu_sp_poll_fd(imu_sensor_proxy *sp, short *events, int *timeout_ms) {
    int fd = sd_bus_get_fd(sp->bus);
    int e = sd_bus_get_events(sp->bus);
    *events = e < 0 ? 0 : (short)e;
    uint64_t until = 0;
    *timeout_ms = -1;
    if (sd_bus_get_timeout(sp->bus, &until) >= 0 && until != UINT64_MAX) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
        *timeout_ms = until <= now_us ? 0 : (int)((until - now_us + 999) / 1000);
    }
    return fd;
}

int imu_sp_set_orientation(imu_sensor_proxy *sp, int orientation) {
    if (orientation < 0 || orientation > IMU_SP_RIGHT_UP) return -EINVAL;
    const char *name = orientation_names[orientation];
    if (sp->accelerometer_orientation == name) return 0;
    sp->accelerometer_orientation = name;
    return sd_bus_emit_properties_changed(sp->bus, PROXY_PATH, PROXY_INTERFACE, "AccelerometerOrientation", NULL);
}

int imu_sp_set_heading(imu_sensor_proxy *sp, double degrees) {
    if (sp->compass_heading == degrees) return 0;
    sp->compass_heading = degrees;
    return sd_bus_emit_properties_changed(sp->bus, COMPASS_PATH, COMPASS_INTERFACE, "CompassHeading", NULL);
}

void imu_sp_close(imu_sensor_proxy *sp) {
    if (!sp) return;
    if (sp->bus) {
        sd_bus_flush(sp->bus);
        sp->owner_slot = sd_bus_slot_unref(sp->owner_slot);
        sp->compass_slot = sd_bus_slot_unref(sp->compass_slot);
        sp->proxy_slot = sd_bus_slot_unref(sp->proxy_slot);
        sd_bus_release_name(sp->bus, PROXY_NAME);
        sp->bus = sd_bus_flush_close_unref(sp->bus);
    }
    free(sp);
}
