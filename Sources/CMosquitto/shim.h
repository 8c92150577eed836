// libmosquitto (Debian's libmosquitto-dev, 2.0.x): the MQTT client the daemon publishes with.
#include <mosquitto.h>
