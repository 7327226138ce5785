#!/bin/sh
# As in the apache/kafka image: the console consumer with the broker's jars.
exec java -cp '/opt/kafka/libs/*' org.apache.kafka.tools.consumer.ConsoleConsumer "$@"
